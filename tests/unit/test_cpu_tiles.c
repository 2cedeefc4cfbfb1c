/* The CPU backend's tiled loop nests (src/codegen/cg.c: kernels that read
 * an operand transposed walk their two innermost output dims in 32x32
 * tiles) against the interpreter, exactly (data movement and elementwise
 * ops, so bit for bit): sizes that are not multiples of the tile, rank 3
 * with the outer dim kept, a fused transpose with arithmetic, a bitcast
 * between layouts, and a copy that changes layout. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"

static bool check_same(const char *name, const char *text) { return cpu_vs_interp(name, text, true); }

TEST(transposes) {
  CHECK(check_same("t2d", "HloModule m\n\nENTRY e {\n  x = f32[70,100] parameter(0)\n"
                          "  ROOT t = f32[100,70] transpose(x), dimensions={1,0}\n}\n"));
  CHECK(check_same("t3d", "HloModule m\n\nENTRY e {\n  x = f32[3,65,130] parameter(0)\n"
                          "  ROOT t = f32[3,130,65] transpose(x), dimensions={0,2,1}\n}\n"));
  CHECK(check_same("t3d_outer", "HloModule m\n\nENTRY e {\n  x = f64[66,3,97] parameter(0)\n"
                                "  ROOT t = f64[3,97,66] transpose(x), dimensions={1,2,0}\n}\n"));
}

TEST(fused_and_layouts) {
  CHECK(check_same("fused", "HloModule m\n\n"
                            "fused {\n  p0 = f32[64,96] parameter(0)\n  p1 = f32[96,64] parameter(1)\n"
                            "  t = f32[96,64] transpose(p0), dimensions={1,0}\n"
                            "  ROOT a = f32[96,64] add(t, p1)\n}\n\n"
                            "ENTRY e {\n  x = f32[64,96] parameter(0)\n  y = f32[96,64] parameter(1)\n"
                            "  ROOT f = f32[96,64] fusion(x, y), kind=kLoop, calls=fused\n}\n"));
  CHECK(check_same("bitcast_layout", "HloModule m\n\nENTRY e {\n  x = f32[80,70]{1,0} parameter(0)\n"
                                     "  ROOT b = f32[70,80]{0,1} bitcast(x)\n}\n"));
  CHECK(check_same("copy_layout", "HloModule m\n\nENTRY e {\n  x = s32[80,70]{1,0} parameter(0)\n"
                                  "  ROOT c = s32[80,70]{0,1} copy(x)\n}\n"));
}

int main(void) {
  RUN(transposes);
  RUN(fused_and_layouts);
  return test_summary(__FILE__);
}
