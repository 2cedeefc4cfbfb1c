/* entry_layout.h: checks the module's entry_computation_layout attribute.
 * Internal to the verifier. */
#ifndef CXLA_VERIFY_ENTRY_LAYOUT_H
#define CXLA_VERIFY_ENTRY_LAYOUT_H

#include "ir/ir.h"

/* If m has an entry layout (m->entry_layout), checks that it lists
 * exactly the entry computation's parameter shapes and root shape (element
 * types and dims). Requires a structurally valid entry computation. Scratch
 * memory comes from a. */
cxla_status check_entry_layout(Arena *a, const HloModule *m);

/* Checks m->io_alias: parameters exist, both shape indices name leaves of
 * the same type and dims, no output index twice. */
cxla_status check_io_alias(Arena *a, const HloModule *m);

#endif
