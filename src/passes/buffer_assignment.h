/* buffer_assignment.h: where every array value of a module lives.
 *
 * buffer_assign() plans the memory of the entry computation the way XLA's
 * buffer assignment and heap simulator do, on a simpler model:
 *
 *  - Schedule: the computation's instruction order (a valid post order) or,
 *    when it needs less memory, a greedy memory-aware list schedule (at each
 *    step the ready instruction that frees the most bytes minus the bytes it
 *    defines). plan->scheduler says which one was kept.
 *  - Values: every array leaf of an instruction's shape (tuples flattened).
 *    Views define no new value: bitcast, get-tuple-element, tuple and
 *    opt-barrier share their operand's values. Tuples' index tables are not
 *    modelled (0 bytes).
 *  - Buffers: a value is live from its defining step to the step of its last
 *    reader. Values are grouped into logical buffers: an elementwise op, a
 *    kLoop fusion whose fused parameter only feeds elementwise ops, a
 *    dynamic-update-slice or a scatter may write its result over an operand
 *    whose value dies at that step (same size); a while's state leaves reuse
 *    its operand's buffers when the while is their last reader (otherwise the
 *    copy XLA would insert gets its own buffer).
 *  - Output buffers are live from their first value to the end; before that
 *    their memory is free, so a temporary that dies before an output buffer
 *    is first written may live there (first fit over the output buffers,
 *    largest first, as XLA's BufferAssigner reuses maybe-live-out
 *    allocations) instead of in the arena.
 *  - Kinds: parameter leaves, constants and the entry result are not
 *    temporaries (their own allocations, as in XLA); a buffer that holds an
 *    output value is an output buffer. The module's input_output_alias
 *    attribute makes an output leaf live in its parameter's buffer.
 *  - Called computations: while, conditional and call are one step of the
 *    caller's schedule; their callees are planned the same way (recursively)
 *    and the largest callee arena becomes one scratch buffer live during
 *    that step. Fusion bodies and reducers are not materialised (XLA keeps
 *    them in registers / thread-local storage).
 *  - Offsets: one arena of temporaries; buffers placed in decreasing size
 *    order at the best-fitting free gap among the buffers whose live ranges
 *    overlap (XLA's GlobalDecreasingSizeBestFitHeap), offsets aligned to 64
 *    bytes (XLA:CPU's minimum alignment).
 *
 * Ownership: buffer_assign fills a BufferPlan whose arrays are heap memory
 * owned by the plan (free with buffer_plan_free); instruction pointers in it
 * are borrowed from the module, which must outlive the plan and stay
 * unchanged. */
#ifndef CXLA_BUFFER_ASSIGNMENT_H
#define CXLA_BUFFER_ASSIGNMENT_H

#include "ir/ir.h"

typedef enum BufKind {
  BUF_TEMP,      /* a temporary in the arena */
  BUF_SCRATCH,   /* a callee's arena, live during the calling step */
  BUF_PARAMETER, /* an entry parameter leaf (or its aliased output) */
  BUF_CONSTANT,
  BUF_OUTPUT,    /* holds (part of) the entry result */
} BufKind;

typedef struct BufValue {
  const Instr *instr; /* the defining instruction */
  int leaf;           /* array leaf of instr's shape, depth-first order */
  int64_t size;       /* bytes */
  int def, last;      /* defining step, last reading step */
  int buffer;         /* index into plan->buffers */
} BufValue;

typedef struct LogicalBuffer {
  BufKind kind;
  int64_t size;        /* bytes (the largest value it holds) */
  int64_t offset;      /* in the temporary arena; -1 unless TEMP/SCRATCH */
  int host;            /* a TEMP placed in a dead stretch of output buffer
                          `host` (index) instead of the arena; else -1 */
  int first, last;     /* live range, schedule steps */
  int param_number;    /* BUF_PARAMETER: entry parameter, else -1 */
  int nvalues;
  int *values;         /* indices into plan->values, in definition order */
} LogicalBuffer;

typedef struct BufferPlan {
  const Computation *comp;
  const char *scheduler;  /* "instruction order" or "list scheduler" */
  int nsteps;
  const Instr **schedule; /* nsteps instructions */
  int nvalues;
  BufValue *values;
  int nbuffers;
  LogicalBuffer *buffers;
  int64_t temp_bytes;     /* arena size: max offset + size over temporaries */
  int64_t peak_bytes;     /* max over steps of live temporary bytes */
  int64_t param_bytes, output_bytes, constant_bytes;
  int64_t scratch_bytes;  /* the largest callee arena (included in temp) */
  int inplace_count;      /* values written over a dying operand */
  /* The plans of the computations that while, conditional and call steps
   * run (directly or nested), one per computation, callees before callers;
   * only in the plan buffer_assign / buffer_assign_computation returns (the
   * callee plans themselves have none). A callee plan's TEMP/SCRATCH
   * offsets are relative to the BUF_SCRATCH buffer of the step that calls
   * it (every computation a step calls starts at offset 0 of that scratch:
   * a while's condition and body never run at once), its own scratch holds
   * its callees in turn. Callees always use their instruction order. */
  int ncallees;
  struct BufferPlan *callees;
  int *callee_by_comp;    /* indices into callees, sorted by comp address
                             (buffer_plan_callee's binary search) */
} BufferPlan;

/* The plan of called computation c among p->callees; NULL if none.
 * O(log ncallees). */
const BufferPlan *buffer_plan_callee(const BufferPlan *p, const Computation *c);

typedef enum BufSchedule {
  BA_SCHEDULE_BEST,  /* both below, keeping the smaller arena */
  BA_SCHEDULE_ORDER, /* the instruction order */
  BA_SCHEDULE_LIST,  /* the greedy list scheduler */
} BufSchedule;

/* Plans the entry computation of m (BA_SCHEDULE_BEST). Instruction ids must
 * be current (comp_renumber). */
cxla_status buffer_assign(const HloModule *m, BufferPlan *out);
/* Plans one computation (its parameters and root treated like the entry's)
 * with the given schedule; callees always use their instruction order. */
cxla_status buffer_assign_computation(const Computation *c, BufSchedule sched,
                                      BufferPlan *out);
void buffer_plan_free(BufferPlan *p);
/* The report text (cxla_free it), in the spirit of XLA's
 * buffer-assignment.txt: one block per buffer (index, kind, size, offset,
 * live range, values), then the totals:
 *   Total temporary bytes: N
 *   Peak live temporary bytes: P */
cxla_status buffer_plan_report(const BufferPlan *p, char **out_text);

#endif
