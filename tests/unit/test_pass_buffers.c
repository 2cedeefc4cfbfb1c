/* Tests of buffer assignment (src/passes/buffer_assignment.c). Expected
 * sizes are worked out by hand from the model in buffer_assignment.h:
 * f32[n] takes 4n bytes, arena offsets are 64-byte aligned. */
#include <stdlib.h>

#include "harness.h"
#include "ir/ir.h"
#include "ir/rewrite.h"
#include "passes/buffer_assignment.h"
#include "passes/passes.h"
#include "verify/verify.h"

static HloModule *parse(const char *text) {
  cxla_module *m = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), "test", &m);
  if (st) {
    fprintf(stderr, "parse: %s\n", cxla_status_message(st));
    cxla_status_free(st);
    return NULL;
  }
  st = verify_module(m);
  if (st) {
    fprintf(stderr, "verify: %s\n", cxla_status_message(st));
    cxla_status_free(st);
  }
  return m;
}

static bool plan(const char *text, BufSchedule s, BufferPlan *p, HloModule **mout) {
  HloModule *m = parse(text);
  memset(p, 0, sizeof *p);
  if (!m) return false;
  cxla_status st = buffer_assign_computation(m->entry, s, p);
  if (st) {
    fprintf(stderr, "buffer_assign: %s\n", cxla_status_message(st));
    cxla_status_free(st);
    module_destroy(m);
    return false;
  }
  *mout = m;
  return true;
}

/* The buffer holding instruction `name`'s first leaf, or NULL. */
static const LogicalBuffer *buffer_of(const BufferPlan *p, const char *name) {
  for (int v = 0; v < p->nvalues; v++)
    if (strcmp(p->values[v].instr->name, name) == 0) return &p->buffers[p->values[v].buffer];
  return NULL;
}

#define ADD_COMP "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"

/* Two 512-byte temporaries with disjoint live ranges share one offset. */
TEST(dead_buffer_reused) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  z = f32[] constant(0)\n"
                  "  a = f32[128] concatenate(p, p), dimensions={0}\n"
                  "  ra = f32[] reduce(a, z), dimensions={0}, to_apply=add\n"
                  "  b = f32[128] concatenate(p, p), dimensions={0}\n"
                  "  rb = f32[] reduce(b, z), dimensions={0}, to_apply=add\n"
                  "  ROOT t = (f32[], f32[]) tuple(ra, rb)\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(p.temp_bytes == 512);
  CHECK(p.peak_bytes == 512);
  const LogicalBuffer *a = buffer_of(&p, "a"), *b = buffer_of(&p, "b");
  CHECK(a && b && a != b && a->offset == 0 && b->offset == 0);
  CHECK(a && a->first == 2 && a->last == 3);
  CHECK(buffer_of(&p, "ra")->kind == BUF_OUTPUT);
  CHECK(buffer_of(&p, "p")->kind == BUF_PARAMETER);
  CHECK(buffer_of(&p, "z")->kind == BUF_CONSTANT);
  CHECK(p.output_bytes == 8 && p.param_bytes == 256 && p.constant_bytes == 4);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* negate(a) writes over a, which dies there: one 256-byte buffer. */
TEST(elementwise_in_place) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  a = f32[64] exponential(p)\n"
                  "  b = f32[64] negate(a)\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(b, z), dimensions={0}, to_apply=add\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(p.temp_bytes == 256);
  CHECK(p.inplace_count == 1);
  CHECK(buffer_of(&p, "a") == buffer_of(&p, "b"));
  CHECK(buffer_of(&p, "a")->nvalues == 2);
  /* the parameter is never overwritten */
  CHECK(buffer_of(&p, "a") != buffer_of(&p, "p"));
  buffer_plan_free(&p);
  module_destroy(m);
}

/* a is still read after negate: negate cannot take a's buffer; the add
 * after both may. */
TEST(in_place_needs_dead_operand) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  a = f32[64] exponential(p)\n"
                  "  b = f32[64] negate(a)\n"
                  "  c = f32[64] add(a, b)\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(c, z), dimensions={0}, to_apply=add\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(buffer_of(&p, "a") != buffer_of(&p, "b"));
  CHECK(buffer_of(&p, "c") == buffer_of(&p, "a") || buffer_of(&p, "c") == buffer_of(&p, "b"));
  CHECK(p.inplace_count == 1);
  CHECK(p.temp_bytes == 512);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* transpose moves elements: never in place. */
TEST(transpose_not_in_place) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[8,8] parameter(0)\n"
                  "  a = f32[8,8] exponential(p)\n"
                  "  b = f32[8,8] transpose(a), dimensions={1,0}\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(b, z), dimensions={0,1}, to_apply=add\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(buffer_of(&p, "a") != buffer_of(&p, "b"));
  CHECK(p.inplace_count == 0);
  CHECK(p.temp_bytes == 512);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* dynamic-update-slice updates its dying operand 0 in place; views (bitcast,
 * tuple, get-tuple-element) define no buffers. */
TEST(dus_in_place_and_views) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  u = f32[8] parameter(1)\n"
                  "  i = s32[] parameter(2)\n"
                  "  a = f32[64] exponential(p)\n"
                  "  d = f32[64] dynamic-update-slice(a, u, i)\n"
                  "  bc = f32[8,8] bitcast(d)\n"
                  "  tp = (f32[8,8], s32[]) tuple(bc, i)\n"
                  "  g = f32[8,8] get-tuple-element(tp), index=0\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(g, z), dimensions={0,1}, to_apply=add\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(buffer_of(&p, "a") == buffer_of(&p, "d"));
  CHECK(buffer_of(&p, "bc") == NULL && buffer_of(&p, "g") == NULL); /* no values */
  CHECK(p.temp_bytes == 256);
  /* d's value stays live through the views until the reduce (step 9) */
  const LogicalBuffer *b = buffer_of(&p, "d");
  CHECK(b && b->first == 3 && b->last == 9);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* A get-tuple-element of a nested tuple reads the leaves after those of
 * the elements before it (each tuple's element offsets worked out once):
 * negate(g) of the last element y takes y's buffer in place (y dies
 * there: the buffer holds y, then n); the middle values are not read by
 * it and keep their own. */
TEST(nested_tuple_views_find_their_leaves) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  p = f32[4] parameter(0)\n"
                  "  x = f32[4] exponential(p)\n"
                  "  u = f32[4] sine(p)\n"
                  "  v = f32[4] cosine(p)\n"
                  "  y = f32[4] tanh(p)\n"
                  "  in = (f32[4], f32[4]) tuple(u, v)\n"
                  "  tp = (f32[4], (f32[4], f32[4]), f32[4]) tuple(x, in, y)\n"
                  "  g = f32[4] get-tuple-element(tp), index=2\n"
                  "  n = f32[4] negate(g)\n"
                  "  ROOT r = (f32[4], f32[4], f32[4], f32[4]) tuple(x, u, v, n)\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  const LogicalBuffer *y = buffer_of(&p, "y"), *n = buffer_of(&p, "n");
  CHECK(y && y == n);
  CHECK(y && y->nvalues == 2);
  CHECK(buffer_of(&p, "u") != y && buffer_of(&p, "v") != y && buffer_of(&p, "x") != y);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* A while's state reuses its dying operand's buffers; a constant in the
 * state gets a copy; the body's temporaries (the 512-byte concatenate) are
 * one scratch buffer live at the while's step. Arena: scratch 512 at 0,
 * state f32[64] 256 at 512; the s32 copy is dead before the 4-byte result
 * is written, so it lives in the output buffer. */
TEST(while_state_and_scratch) {
  const char *t =
      "HloModule m\n" ADD_COMP
      "body {\n"
      "  s = (s32[], f32[64]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  x = f32[64] get-tuple-element(s), index=1\n"
      "  c = f32[128] concatenate(x, x), dimensions={0}\n"
      "  y = f32[64] slice(c), slice={[32:96]}\n"
      "  ROOT t = (s32[], f32[64]) tuple(i1, y)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[64]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(3)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[64] parameter(0)\n"
      "  a = f32[64] exponential(p)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[64]) tuple(zero, a)\n"
      "  w = (s32[], f32[64]) while(init), condition=cond, body=body\n"
      "  g = f32[64] get-tuple-element(w), index=1\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[] reduce(g, z), dimensions={0}, to_apply=add\n"
      "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  const LogicalBuffer *a = buffer_of(&p, "a");
  CHECK(a && a->nvalues == 2); /* a, then the while's leaf 1 */
  CHECK(p.scratch_bytes == 512);
  CHECK(p.temp_bytes == 768);
  CHECK(p.peak_bytes == 768);
  const LogicalBuffer *wcopy = buffer_of(&p, "w"); /* leaf {0} */
  CHECK(wcopy && wcopy != a && wcopy->host >= 0 && p.buffers[wcopy->host].kind == BUF_OUTPUT);
  int scratch = 0;
  for (int i = 0; i < p.nbuffers; i++)
    if (p.buffers[i].kind == BUF_SCRATCH) {
      scratch++;
      CHECK(p.buffers[i].first == 4 && p.buffers[i].last == 4);
    }
  CHECK(scratch == 1);
  /* The plan keeps the plans of the loop's computations: the body's
   * concatenate (512 bytes) at offset 0 of the scratch; cond needs none. */
  CHECK(p.ncallees == 2);
  const BufferPlan *body = buffer_plan_callee(&p, module_find_computation(m, "body"));
  const BufferPlan *cond = buffer_plan_callee(&p, module_find_computation(m, "cond"));
  CHECK(body && strcmp(body->comp->name, "body") == 0 && body->temp_bytes == 512);
  CHECK(cond && cond->temp_bytes == 0);
  const LogicalBuffer *cb = body ? buffer_of(body, "c") : NULL;
  CHECK(cb && cb->kind == BUF_TEMP && cb->offset == 0 && cb->size == 512);
  CHECK(buffer_plan_callee(&p, m->entry) == NULL);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* If the state operand is read after the loop, the while's leaf is a copy. */
TEST(while_operand_live_after_gets_copy) {
  const char *t =
      "HloModule m\n" ADD_COMP
      "body {\n"
      "  s = (f32[64]) parameter(0)\n"
      "  x = f32[64] get-tuple-element(s), index=0\n"
      "  y = f32[64] negate(x)\n"
      "  ROOT t = (f32[64]) tuple(y)\n"
      "}\n"
      "cond {\n"
      "  s = (f32[64]) parameter(0)\n"
      "  ROOT f = pred[] constant(false)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[64] parameter(0)\n"
      "  a = f32[64] exponential(p)\n"
      "  init = (f32[64]) tuple(a)\n"
      "  w = (f32[64]) while(init), condition=cond, body=body\n"
      "  g = f32[64] get-tuple-element(w), index=0\n"
      "  s = f32[64] add(g, a)\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[] reduce(s, z), dimensions={0}, to_apply=add\n"
      "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  const LogicalBuffer *a = buffer_of(&p, "a"), *w = buffer_of(&p, "w");
  CHECK(a && w && a != w);
  CHECK(p.scratch_bytes == 0); /* the body writes its result in place */
  CHECK(p.temp_bytes == 512);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* input_output_alias: output {0} lives in parameter 0's buffer. */
TEST(input_output_alias_honoured) {
  const char *t = "HloModule m, input_output_alias={ {0}: (0, {}, may-alias) }\n"
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  q = f32[16] parameter(1)\n"
                  "  a = f32[64] exponential(p)\n"
                  "  b = f32[16] negate(q)\n"
                  "  ROOT t = (f32[64], f32[16]) tuple(a, b)\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  const LogicalBuffer *a = buffer_of(&p, "a"), *b = buffer_of(&p, "b");
  CHECK(a && a->kind == BUF_PARAMETER && a->param_number == 0);
  CHECK(b && b->kind == BUF_OUTPUT);
  CHECK(p.output_bytes == 64);
  CHECK(p.temp_bytes == 0);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* A temporary that dies before the output is written lives in the output's
 * memory; one that is read by the output's producer cannot. */
TEST(temporary_in_output_buffer) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  c = f32[128] concatenate(p, p), dimensions={0}\n"
                  "  z = f32[] constant(0)\n"
                  "  r = f32[] reduce(c, z), dimensions={0}, to_apply=add\n"
                  "  ROOT b = f32[128] broadcast(r), dimensions={}\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  const LogicalBuffer *c = buffer_of(&p, "c"), *b = buffer_of(&p, "b"), *r = buffer_of(&p, "r");
  CHECK(c && b && c->host >= 0 && &p.buffers[c->host] == b);
  CHECK(r && r->host < 0 && r->offset == 0);
  CHECK(p.temp_bytes == 4);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* Instruction order keeps both concatenates alive (2048 bytes); the list
 * scheduler reduces each right after it is made (1024). BEST keeps the
 * list schedule. */
TEST(list_scheduler_beats_order) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  z = f32[] constant(0)\n"
                  "  a = f32[256] concatenate(p, p, p, p), dimensions={0}\n"
                  "  b = f32[256] concatenate(p, p, p, p), dimensions={0}\n"
                  "  ra = f32[] reduce(a, z), dimensions={0}, to_apply=add\n"
                  "  rb = f32[] reduce(b, z), dimensions={0}, to_apply=add\n"
                  "  ROOT t = (f32[], f32[]) tuple(ra, rb)\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(p.temp_bytes == 2048);
  buffer_plan_free(&p);
  CHECK_OK(buffer_assign(m, &p));
  CHECK(p.temp_bytes == 1024);
  CHECK(strcmp(p.scheduler, "list scheduler") == 0);
  /* the schedule is a valid order: every operand before its user */
  for (int s = 0; s < p.nsteps; s++)
    for (int k = 0; k < p.schedule[s]->noperands; k++) {
      bool before = false;
      for (int q = 0; q < s; q++) before |= p.schedule[q] == p.schedule[s]->operands[k];
      CHECK(before);
    }
  buffer_plan_free(&p);
  module_destroy(m);
}

/* A kLoop fusion whose fused parameter feeds only elementwise ops is
 * in place; one that transposes its parameter is not. */
TEST(fusion_in_place_only_when_elementwise) {
  const char *t = "HloModule m\n" ADD_COMP
                  "f1 {\n"
                  "  x = f32[8,8] parameter(0)\n"
                  "  e = f32[8,8] exponential(x)\n"
                  "  ROOT n = f32[8,8] negate(e)\n"
                  "}\n"
                  "f2 {\n"
                  "  x = f32[8,8] parameter(0)\n"
                  "  tr = f32[8,8] transpose(x), dimensions={1,0}\n"
                  "  ROOT n = f32[8,8] negate(tr)\n"
                  "}\n"
                  "ENTRY e {\n"
                  "  p = f32[8,8] parameter(0)\n"
                  "  a = f32[8,8] exponential(p)\n"
                  "  b = f32[8,8] fusion(a), kind=kLoop, calls=f1\n"
                  "  c = f32[8,8] fusion(b), kind=kLoop, calls=f2\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(c, z), dimensions={0,1}, to_apply=add\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(buffer_of(&p, "a") == buffer_of(&p, "b"));
  CHECK(buffer_of(&p, "b") != buffer_of(&p, "c"));
  CHECK(p.temp_bytes == 512);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* A conditional's scratch is its largest branch arena. */
/* Nested loops: the inner loop's plans are kept too (callees before
 * callers), and the outer body's scratch holds the inner body's arena. */
TEST(nested_callee_plans) {
  const char *t = "HloModule m\n"
                  "ib {\n"
                  "  x = f32[16] parameter(0)\n"
                  "  c = f32[32] concatenate(x, x), dimensions={0}\n"
                  "  ROOT y = f32[16] slice(c), slice={[8:24]}\n"
                  "}\n"
                  "ic {\n"
                  "  x = f32[16] parameter(0)\n"
                  "  ROOT t = pred[] constant(false)\n"
                  "}\n"
                  "ob {\n"
                  "  x = f32[16] parameter(0)\n"
                  "  ROOT w = f32[16] while(x), condition=ic, body=ib\n"
                  "}\n"
                  "ENTRY e {\n"
                  "  p = f32[16] parameter(0)\n"
                  "  ROOT w = f32[16] while(p), condition=ic, body=ob\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(p.ncallees == 3); /* ic, ib, ob: each once */
  const BufferPlan *ib = buffer_plan_callee(&p, module_find_computation(m, "ib"));
  const BufferPlan *ob = buffer_plan_callee(&p, module_find_computation(m, "ob"));
  CHECK(ib && ib->temp_bytes == 128);
  CHECK(ob && ob->scratch_bytes == 128 && ob->ncallees == 0);
  CHECK(p.scratch_bytes == ob->temp_bytes);
  int ib_at = -1, ob_at = -1;
  for (int i = 0; i < p.ncallees; i++) {
    if (&p.callees[i] == ib) ib_at = i;
    if (&p.callees[i] == ob) ob_at = i;
  }
  CHECK(ib_at >= 0 && ob_at > ib_at);
  buffer_plan_free(&p);
  module_destroy(m);
}

TEST(conditional_scratch_is_largest_branch) {
  const char *t = "HloModule m\n" ADD_COMP
                  "b0 {\n"
                  "  x = f32[64] parameter(0)\n"
                  "  c = f32[256] concatenate(x, x, x, x), dimensions={0}\n"
                  "  ROOT y = f32[64] slice(c), slice={[0:64]}\n"
                  "}\n"
                  "b1 {\n"
                  "  x = f32[64] parameter(0)\n"
                  "  c = f32[128] concatenate(x, x), dimensions={0}\n"
                  "  ROOT y = f32[64] slice(c), slice={[64:128]}\n"
                  "}\n"
                  "ENTRY e {\n"
                  "  k = s32[] parameter(0)\n"
                  "  p = f32[64] parameter(1)\n"
                  "  ROOT r = f32[64] conditional(k, p, p), branch_computations={b0, b1}\n"
                  "}\n";
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  if (!m) return;
  CHECK(p.scratch_bytes == 1024);
  CHECK(p.temp_bytes == 1024);
  /* Both branches planned, each from offset 0 of the one scratch buffer. */
  const BufferPlan *b0 = buffer_plan_callee(&p, module_find_computation(m, "b0"));
  const BufferPlan *b1 = buffer_plan_callee(&p, module_find_computation(m, "b1"));
  CHECK(p.ncallees == 2 && b0 && b1);
  CHECK(b0 && b0->temp_bytes == 1024 && b1 && b1->temp_bytes == 512);
  buffer_plan_free(&p);
  module_destroy(m);
}

/* The pass leaves the report in ctx->report and does not change the module. */
TEST(pass_report) {
  const char *t = "HloModule m\n" ADD_COMP
                  "ENTRY e {\n"
                  "  p = f32[64] parameter(0)\n"
                  "  a = f32[64] exponential(p)\n"
                  "  b = f32[64] negate(a)\n"
                  "  z = f32[] constant(0)\n"
                  "  ROOT r = f32[] reduce(b, z), dimensions={0}, to_apply=add\n"
                  "}\n";
  HloModule *m = parse(t);
  if (!m) return;
  char *before = NULL, *after = NULL, *report = NULL;
  CHECK_OK(cxla_module_print(m, &before));
  PassContext ctx = {.fold_limit_bytes = 0, .report = &report};
  bool changed = true;
  CHECK_OK(pass_buffer_assignment(m, &ctx, &changed));
  CHECK(!changed);
  CHECK_OK(cxla_module_print(m, &after));
  CHECK(before && after && strcmp(before, after) == 0);
  CHECK(report && strstr(report, "Total temporary bytes: 256\n"));
  CHECK(report && strstr(report, "Peak live temporary bytes: 256\n"));
  CHECK(report && strstr(report, "value: <a {}> (size=256"));
  CHECK(report && strstr(report, "value: <b {}> (size=256"));
  CHECK(report && strstr(report, "parameter 0"));
  cxla_free(before);
  cxla_free(after);
  cxla_free(report);
  const char *names[] = {"buffer-assignment"};
  PipelineOptions o = {.verify = true};
  CHECK_OK(pipeline_run(m, names, 1, &o));
  module_destroy(m);
}

/* XLA's preallocated-temp size from its buffer-assignment.txt, or -1. */
/* 700 small values live at once (an unrolled loop's rows, all read by a
 * chain of adds at the end): more than best fit compares with (the later
 * ones go on top of the arena), and still no two temporaries whose live
 * ranges meet share a byte. */
TEST(crowded_buffers_never_overlap) {
  enum { N = 700 };
  size_t cap = (size_t)N * 160 + 256;
  char *t = malloc(cap);
  if (!t) return;
  size_t o = (size_t)snprintf(t, cap, "HloModule m\nENTRY e {\n  p = f32[%d,16] parameter(0)\n", N);
  for (int i = 0; i < N; i++)
    o += (size_t)snprintf(t + o, cap - o, "  s%d = f32[1,16] slice(p), slice={[%d:%d], [0:16]}\n"
                          "  e%d = f32[1,16] exponential(s%d)\n", i, i, i + 1, i, i);
  o += (size_t)snprintf(t + o, cap - o, "  a1 = f32[1,16] add(e0, e1)\n");
  for (int i = 2; i < N; i++) o += (size_t)snprintf(t + o, cap - o, "  a%d = f32[1,16] add(a%d, e%d)\n", i, i - 1, i);
  snprintf(t + o, cap - o, "  ROOT r = f32[1,16] negate(a%d)\n}\n", N - 1);
  BufferPlan p;
  HloModule *m;
  CHECK(plan(t, BA_SCHEDULE_ORDER, &p, &m));
  free(t);
  if (!m) return;
  int temps = 0, bad = 0;
  for (int i = 0; i < p.nbuffers; i++) {
    const LogicalBuffer *x = &p.buffers[i];
    if (x->kind != BUF_TEMP || x->size == 0) continue;
    temps++;
    for (int j = i + 1; j < p.nbuffers; j++) {
      const LogicalBuffer *y = &p.buffers[j];
      if (y->kind != BUF_TEMP || y->size == 0) continue;
      bool live = x->first <= y->last && y->first <= x->last;
      bool bytes = x->offset < y->offset + y->size && y->offset < x->offset + x->size;
      bad += live && bytes;
    }
  }
  /* the exponentials' buffers (the adds work in place over them) are all
   * live before the adds start: the arena holds each once, no more */
  CHECK(temps >= N - 1);
  CHECK(bad == 0);
  if (bad) fprintf(stderr, "  %d pairs of live temporaries overlap\n", bad);
  CHECK(p.temp_bytes == (int64_t)temps * 64);
  buffer_plan_free(&p);
  module_destroy(m);
}

static long long xla_temp_bytes(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  long long v = -1;
  while (fgets(line, sizeof line, f)) {
    char *q = strstr(line, ", preallocated-temp");
    char *s = strstr(line, ": size ");
    if (q && s) v = atoll(s + 7);
  }
  fclose(f);
  return v;
}

/* The corpus models (XLA's optimized modules, which XLA scheduled): our
 * arena next to XLA's preallocated temp allocation. Same model, simpler
 * rules: within a factor of 1.5 either way. */
TEST(corpus_models_next_to_xla) {
  static const char *const models[] = {"model_mlp_forward", "model_mlp_train_step",
                                       "model_transformer_fwd", "model_transformer_grad",
                                       "model_cnn_train_step"};
  const char *root = getenv("CXLA_CORPUS");
  if (!root) root = "tests/corpus";
  char path[1024];
  int found = 0;
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
    snprintf(path, sizeof path, "%s/%s/xla_buffer_assignment.txt", root, models[i]);
    long long xla = xla_temp_bytes(path);
    if (xla < 0) continue; /* corpus not present */
    found++;
    long long ours[2][2]; /* [module.hlo, optimized.hlo][order, best] */
    for (int k = 0; k < 2; k++) {
      snprintf(path, sizeof path, "%s/%s/%s", root, models[i], k ? "optimized.hlo" : "module.hlo");
      cxla_module *m = NULL;
      CHECK_OK(cxla_module_parse_file(path, &m));
      if (!m) continue;
      for (int s = 0; s < 2; s++) {
        BufferPlan p;
        CHECK_OK(buffer_assign_computation(m->entry, s ? BA_SCHEDULE_BEST : BA_SCHEDULE_ORDER, &p));
        ours[k][s] = p.temp_bytes;
        buffer_plan_free(&p);
      }
      module_destroy(m);
    }
    printf("  %-24s temp bytes: XLA %lld | optimized.hlo: order %lld, best %lld | "
           "module.hlo: order %lld, best %lld\n",
           models[i], xla, ours[1][0], ours[1][1], ours[0][0], ours[0][1]);
    CHECK(ours[1][0] * 2 <= xla * 3 && ours[1][0] * 3 >= xla * 2);
    CHECK(ours[1][1] <= ours[1][0]);
  }
  if (!found) SKIP("no xla_buffer_assignment.txt of the corpus models under %s", root);
}

int main(void) {
  RUN(dead_buffer_reused);
  RUN(elementwise_in_place);
  RUN(in_place_needs_dead_operand);
  RUN(transpose_not_in_place);
  RUN(dus_in_place_and_views);
  RUN(nested_tuple_views_find_their_leaves);
  RUN(while_state_and_scratch);
  RUN(while_operand_live_after_gets_copy);
  RUN(nested_callee_plans);
  RUN(input_output_alias_honoured);
  RUN(temporary_in_output_buffer);
  RUN(list_scheduler_beats_order);
  RUN(fusion_in_place_only_when_elementwise);
  RUN(conditional_scratch_is_largest_branch);
  RUN(pass_report);
  RUN(crowded_buffers_never_overlap);
  RUN(corpus_models_next_to_xla);
  return test_summary(__FILE__);
}
