/* The CPU backend's tiled loop nests (src/codegen/cg.c: kernels that read
 * an operand transposed walk their two innermost output dims in 32x32
 * tiles) against the interpreter, exactly (data movement and elementwise
 * ops, so bit for bit): sizes that are not multiples of the tile, rank 3
 * with the outer dim kept, a fused transpose with arithmetic, a bitcast
 * between layouts, and a copy that changes layout. Then the transposes
 * of 32-bit elements moved in 16 x 16 register blocks (cg.c
 * emit_transpose): f32 and s32, rows past the last whole block, a
 * transposing bitcast, a fusion that only transposes (or copies a
 * transposing bitcast: layout assignment's form), on one thread and
 * split into slices of one unit over a pool; units of 16 rows, or of 16
 * columns of all rows where there are few rows; batches of 2-D
 * transposes (rank 3, {0,2,1}, and layout assignment's form of it), and
 * of rank 4 (NCHW <-> NHWC); and
 * the kernels it must leave to the tiles: 64-bit elements, columns not a
 * multiple of 16, a transpose with arithmetic; and transposes of whole
 * rows (the last dim innermost on both sides), left to plain nests.
 * Outputs of 16 MiB and more are written by non-temporal stores (x86): a
 * transpose, a transposing bitcast and a fused copy of one of that size,
 * 5 rows past the last block, and a batch; in groups of four column
 * blocks with blocks left over, by rows and by columns. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "verify/verify.h"
#include "runtime/threadpool.h"
#include "codegen_probe.h"
#include "codegen/codegen.h"

/* cpu_vs_interp's check on a pool of 2 threads with every kernel split
 * into slices of one row ($CXLA_CPU_GRAIN=1), bit for bit. */
static bool check_split(const char *name, const char *text) { return cpu_vs_interp_split(name, text, true, NULL); }

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

static const char k_blocks_f32[] = "HloModule m\n\nENTRY e {\n  x = f32[48,40] parameter(0)\n"
                                   "  ROOT t = f32[40,48] transpose(x), dimensions={1,0}\n}\n";
static const char k_blocks_s32[] = "HloModule m\n\nENTRY e {\n  x = s32[64,32] parameter(0)\n"
                                   "  ROOT t = s32[32,64] transpose(x), dimensions={1,0}\n}\n";
static const char k_blocks_bitcast[] = "HloModule m\n\nENTRY e {\n  x = f32[32,37]{1,0} parameter(0)\n"
                                       "  ROOT b = f32[37,32]{0,1} bitcast(x)\n}\n";
static const char k_blocks_fused[] =
    "HloModule m\n\nfused {\n  p0 = f32[32,35] parameter(0)\n  ROOT t = f32[35,32] transpose(p0), dimensions={1,0}\n}\n\n"
    "ENTRY e {\n  x = f32[32,35] parameter(0)\n  ROOT f = f32[35,32] fusion(x), kind=kLoop, calls=fused\n}\n";

/* layout assignment's form of a transpose: a fused copy of a bitcast */
static const char k_blocks_copy[] =
    "HloModule m\n\nfused {\n  p0 = f32[48,35]{1,0} parameter(0)\n  t = f32[35,48]{0,1} bitcast(p0)\n"
    "  ROOT c = f32[35,48]{1,0} copy(t)\n}\n\n"
    "ENTRY e {\n  x = f32[48,35]{1,0} parameter(0)\n  ROOT f = f32[35,48]{1,0} fusion(x), kind=kLoop, calls=fused\n}\n";

TEST(register_blocks) {
  const char *texts[5] = {k_blocks_f32, k_blocks_s32, k_blocks_bitcast, k_blocks_fused, k_blocks_copy};
  const char *names[5] = {"blocks_f32", "blocks_s32", "blocks_bitcast", "blocks_fused", "blocks_copy"};
  for (int i = 0; i < 5; i++) {
    CHECK(check_same(names[i], texts[i]));
    CHECK(check_split(names[i], texts[i]));
  }
  /* not blocks: 64-bit elements, 40 columns, arithmetic on the way */
  CHECK(check_same("f64_32", "HloModule m\n\nENTRY e {\n  x = f64[48,32] parameter(0)\n"
                             "  ROOT t = f64[32,48] transpose(x), dimensions={1,0}\n}\n"));
  CHECK(check_split("cols_40", "HloModule m\n\nENTRY e {\n  x = f32[40,48] parameter(0)\n"
                               "  ROOT t = f32[48,40] transpose(x), dimensions={1,0}\n}\n"));
  CHECK(check_split("negated", "HloModule m\n\nENTRY e {\n  x = f32[48,32] parameter(0)\n"
                               "  t = f32[32,48] transpose(x), dimensions={1,0}\n  ROOT n = f32[32,48] negate(t)\n}\n"));
}

/* Units of 16 rows (128 rows and more: 133 rows, the last unit 5) and of
 * 16 columns (fewer rows: 20, one block and 4 rows moved alone per
 * unit); batches, whole blocks only (rows and columns multiples of 16),
 * as a transpose and as layout assignment's bitcast and copy; NCHW to
 * NHWC and back (the H and W dims one group), a dim of size 1. */
TEST(units_and_batches) {
  static const char *const mods[][2] = {
      {"rows_133", "HloModule m\n\nENTRY e {\n  x = f32[32,133] parameter(0)\n"
                   "  ROOT t = f32[133,32] transpose(x), dimensions={1,0}\n}\n"},
      {"cols_4096", "HloModule m\n\nENTRY e {\n  x = s32[4096,20] parameter(0)\n"
                    "  ROOT t = s32[20,4096] transpose(x), dimensions={1,0}\n}\n"},
      {"batch_3", "HloModule m\n\nENTRY e {\n  x = f32[3,48,32] parameter(0)\n"
                  "  ROOT t = f32[3,32,48] transpose(x), dimensions={0,2,1}\n}\n"},
      {"nchw_to_nhwc", "HloModule m\n\nENTRY e {\n  x = f32[2,32,4,8] parameter(0)\n"
                       "  ROOT t = f32[2,4,8,32] transpose(x), dimensions={0,2,3,1}\n}\n"},
      {"nhwc_to_nchw", "HloModule m\n\nENTRY e {\n  x = f32[2,4,8,32] parameter(0)\n"
                       "  ROOT t = f32[2,32,4,8] transpose(x), dimensions={0,3,1,2}\n}\n"},
      {"unit_dim", "HloModule m\n\nENTRY e {\n  x = s32[3,1,32,16] parameter(0)\n"
                   "  ROOT t = s32[3,1,16,32] transpose(x), dimensions={0,1,3,2}\n}\n"},
      {"nhwc_bitcast", "HloModule m\n\nfused {\n  p0 = f32[2,4,8,32]{3,2,1,0} parameter(0)\n"
                       "  t = f32[2,32,4,8]{1,3,2,0} bitcast(p0)\n  ROOT c = f32[2,32,4,8]{3,2,1,0} copy(t)\n}\n\n"
                       "ENTRY e {\n  x = f32[2,4,8,32]{3,2,1,0} parameter(0)\n"
                       "  ROOT f = f32[2,32,4,8]{3,2,1,0} fusion(x), kind=kLoop, calls=fused\n}\n"},
      {"batch_copy", "HloModule m\n\nfused {\n  p0 = s32[5,32,16]{2,1,0} parameter(0)\n"
                     "  t = s32[5,16,32]{1,2,0} bitcast(p0)\n  ROOT c = s32[5,16,32]{2,1,0} copy(t)\n}\n\n"
                     "ENTRY e {\n  x = s32[5,32,16]{2,1,0} parameter(0)\n"
                     "  ROOT f = s32[5,16,32]{2,1,0} fusion(x), kind=kLoop, calls=fused\n}\n"},
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    CHECK(check_same(mods[i][0], mods[i][1]));
    CHECK(check_split(mods[i][0], mods[i][1]));
  }
  /* a batch whose matrices are not whole blocks: the tiles */
  CHECK(check_split("batch_40", "HloModule m\n\nENTRY e {\n  x = f32[2,40,48] parameter(0)\n"
                                "  ROOT t = f32[2,48,40] transpose(x), dimensions={0,2,1}\n}\n"));
}

/* The kernel's range in units of the register blocks (its path, seen
 * from outside): 16-column units for a root bitcast whose layout is
 * {0,1} (transpose_4096's form: it once fell to the tiles, 6x slower),
 * 16-row units for 256 rows, a batch's rows for NHWC -> NCHW. */
static int64_t root_extent(const char *text) { return probe_root(text, codegen_kernel_extent); }

TEST(block_units) {
  CHECK(root_extent("HloModule m\n\nENTRY e {\n  x = f32[160,48]{1,0} parameter(0)\n"
                    "  ROOT b = f32[48,160]{0,1} bitcast(x)\n}\n") == 10);
  CHECK(root_extent("HloModule m\n\nENTRY e {\n  x = f32[64,256] parameter(0)\n"
                    "  ROOT t = f32[256,64] transpose(x), dimensions={1,0}\n}\n") == 16);
  CHECK(root_extent("HloModule m\n\nENTRY e {\n  x = f32[2,4,8,32] parameter(0)\n"
                    "  ROOT t = f32[2,32,4,8] transpose(x), dimensions={0,3,1,2}\n}\n") == 4);
  /* not blocks: 40 columns (the tiles' rows) */
  CHECK(root_extent("HloModule m\n\nENTRY e {\n  x = f32[40,48] parameter(0)\n"
                    "  ROOT t = f32[48,40] transpose(x), dimensions={1,0}\n}\n") == 48);
}

/* Transposes of whole rows (the last dim innermost on both sides:
 * attention's [B, S, H, D] <-> [B, H, S, D], {1,0,2}) in layout
 * assignment's form, copy(bitcast(p)) with the bitcast's layout
 * {3,1,2,0}: a plain nest whose inner loop walks the rows (not the tiles,
 * whose inner loop walked S: f32[8,1024,16,128] 7.8 -> 2.7 ms), its rows
 * the leading dims (8 x 16 = 128 rows; tiled: the outermost dim, 8); bit
 * for bit against the interpreter, rows of 64 and 65 elements, f32 and
 * f64, rank 3 and 4, one thread and split. */
static const char k_rows_fused[] = "HloModule m\n\n"
                                   "fused {\n  p = f32[8,100,16,128]{3,2,1,0} parameter(0)\n"
                                   "  b = f32[8,16,100,128]{3,1,2,0} bitcast(p)\n"
                                   "  ROOT c = f32[8,16,100,128]{3,2,1,0} copy(b)\n}\n\n"
                                   "ENTRY e {\n  x = f32[8,100,16,128]{3,2,1,0} parameter(0)\n"
                                   "  ROOT f = f32[8,16,100,128]{3,2,1,0} fusion(x), kind=kLoop, calls=fused\n}\n";
static const char k_rows_f64[] = "HloModule m\n\n"
                                 "fused {\n  p = f64[70,3,65]{2,1,0} parameter(0)\n"
                                 "  b = f64[3,70,65]{2,0,1} bitcast(p)\n"
                                 "  ROOT c = f64[3,70,65]{2,1,0} copy(b)\n}\n\n"
                                 "ENTRY e {\n  x = f64[70,3,65]{2,1,0} parameter(0)\n"
                                 "  ROOT f = f64[3,70,65]{2,1,0} fusion(x), kind=kLoop, calls=fused\n}\n";
static const char k_rows_copy[] = "HloModule m\n\nENTRY e {\n  x = f32[5,66,4,64]{3,1,2,0} parameter(0)\n"
                                  "  ROOT c = f32[5,66,4,64]{3,2,1,0} copy(x)\n}\n";
static const char k_rows_t[] = "HloModule m\n\nENTRY e {\n  x = f32[66,5,65] parameter(0)\n"
                               "  ROOT t = f32[5,66,65] transpose(x), dimensions={1,0,2}\n}\n";

TEST(whole_rows) {
  CHECK(root_extent(k_rows_fused) == 128);
  CHECK(check_same("rows_fused", k_rows_fused));
  CHECK(check_split("rows_fused_split", k_rows_fused));
  CHECK(check_same("rows_f64", k_rows_f64));
  CHECK(check_same("rows_copy", k_rows_copy));
  CHECK(check_split("rows_t_split", k_rows_t));
}

/* Outputs of at least CG_TRANSPOSE_NT_BYTES (16 MiB): 2053 x 2048 f32
 * is 16.04 MiB, rows 2048 .. 2052 after the last whole block. */
TEST(streamed_blocks) {
  static const char t[] = "HloModule m\n\nENTRY e {\n  x = f32[2048,2053] parameter(0)\n"
                          "  ROOT t = f32[2053,2048] transpose(x), dimensions={1,0}\n}\n";
  static const char b[] = "HloModule m\n\nENTRY e {\n  x = s32[2048,2053]{1,0} parameter(0)\n"
                          "  ROOT b = s32[2053,2048]{0,1} bitcast(x)\n}\n";
  CHECK(check_same("stream_f32", t));
  CHECK(check_split("stream_f32", t));
  static const char c[] =
      "HloModule m\n\nfused {\n  p0 = f32[2048,2053]{1,0} parameter(0)\n  t = f32[2053,2048]{0,1} bitcast(p0)\n"
      "  ROOT c = f32[2053,2048]{1,0} copy(t)\n}\n\n"
      "ENTRY e {\n  x = f32[2048,2053]{1,0} parameter(0)\n"
      "  ROOT f = f32[2053,2048]{1,0} fusion(x), kind=kLoop, calls=fused\n}\n";
  CHECK(check_same("stream_bitcast", b));
  CHECK(check_same("stream_copy", c));
  static const char bt[] = "HloModule m\n\nENTRY e {\n  x = f32[64,256,256] parameter(0)\n"
                           "  ROOT t = f32[64,256,256] transpose(x), dimensions={0,2,1}\n}\n";
  CHECK(check_split("stream_batch", bt));
  /* column blocks in groups of CG_TGROUP (4), then the rest: 131 blocks
   * of 16 columns (32 groups and 3); and 16-column units of all 64 rows
   * (few rows), 4097 of them, split into slices of one (no whole group) */
  static const char g[] = "HloModule m\n\nENTRY e {\n  x = f32[2096,2048] parameter(0)\n"
                          "  ROOT t = f32[2048,2096] transpose(x), dimensions={1,0}\n}\n";
  static const char gc[] = "HloModule m\n\nENTRY e {\n  x = f32[65552,64] parameter(0)\n"
                           "  ROOT t = f32[64,65552] transpose(x), dimensions={1,0}\n}\n";
  CHECK(check_same("stream_groups", g));
  CHECK(check_split("stream_groups", g));
  CHECK(check_same("stream_group_cols", gc));
  CHECK(check_split("stream_group_cols", gc));
}

/* Bitcasts that split, merge and reorder dims (attention's heads: [S, H*D]
 * as [H, S, D], [H, D, S], and back), with odd sizes, a dim of size 1,
 * and ones that do not group (a reshape's regrouping of digits: the
 * per-element division path); each with arithmetic on the way so that it
 * is computed element by element. */
static void heads_text(char *buf, size_t n, int S, int H, int D, const char *to, const char *layout) {
  int W = 3 * H * D;
  snprintf(buf, n,
           "HloModule m\n\nfused {\n  p0 = f32[%d,%d]{1,0} parameter(0)\n  p1 = f32[%d]{0} parameter(1)\n"
           "  b = f32[%d,%d]{1,0} broadcast(p1), dimensions={1}\n  a = f32[%d,%d]{1,0} add(p0, b)\n"
           "  s = f32[%d,%d]{1,0} slice(a), slice={[0:%d], [%d:%d]}\n  t = f32[%s]%s bitcast(s)\n"
           "  ROOT c = f32[%s] copy(t)\n}\n\n"
           "ENTRY e {\n  x = f32[%d,%d] parameter(0)\n  y = f32[%d] parameter(1)\n"
           "  ROOT f = f32[%s] fusion(x, y), kind=kLoop, calls=fused\n}\n",
           S, W, W, S, W, S, W, S, H * D, S, H * D, 2 * H * D, to, layout, to, S, W, W, to);
}

TEST(grouped_bitcasts) {
  static const int sizes[3][3] = {{37, 3, 5}, {130, 3, 40}, {64, 2, 64}};
  for (int i = 0; i < 3; i++) {
    int S = sizes[i][0], H = sizes[i][1], D = sizes[i][2];
    char to[64], text[2048];
    snprintf(to, sizeof to, "%d,%d,%d", H, S, D);
    heads_text(text, sizeof text, S, H, D, to, "{2,0,1}");
    CHECK(check_same("heads_hsd", text));
    CHECK(check_split("heads_hsd", text));
    snprintf(to, sizeof to, "%d,%d,%d", H, D, S);
    heads_text(text, sizeof text, S, H, D, to, "{1,0,2}");
    CHECK(check_same("heads_hds", text));
    CHECK(check_split("heads_hds", text));
    snprintf(to, sizeof to, "%d,%d,1,%d", H, S, D);
    heads_text(text, sizeof text, S, H, D, to, "{3,2,0,1}");
    CHECK(check_same("heads_unit_dim", text));
    /* back: [H, S, D] as [S, H, D], copied, as [S, H*D] */
    snprintf(text, sizeof text,
             "HloModule m\n\nfused {\n  p0 = f32[%d,%d,%d]{2,1,0} parameter(0)\n"
             "  n = f32[%d,%d,%d]{2,1,0} negate(p0)\n  t = f32[%d,%d,%d]{2,0,1} bitcast(n)\n"
             "  c = f32[%d,%d,%d]{2,1,0} copy(t)\n  ROOT r = f32[%d,%d]{1,0} bitcast(c)\n}\n\n"
             "ENTRY e {\n  x = f32[%d,%d,%d] parameter(0)\n"
             "  ROOT f = f32[%d,%d] fusion(x), kind=kLoop, calls=fused\n}\n",
             H, S, D, H, S, D, S, H, D, S, H, D, S, H * D, H, S, D, S, H * D);
    CHECK(check_same("heads_merge", text));
    CHECK(check_split("heads_merge", text));
  }
  /* digits that regroup ([6, 10] read as [10, 6]: no result dim lies
   * within one operand dim) */
  static const char regroup[] =
      "HloModule m\n\nfused {\n  p0 = f32[6,10]{1,0} parameter(0)\n  n = f32[6,10]{1,0} negate(p0)\n"
      "  ROOT b = f32[10,6]{1,0} bitcast(n)\n}\n\n"
      "ENTRY e {\n  x = f32[6,10] parameter(0)\n  ROOT f = f32[10,6] fusion(x), kind=kLoop, calls=fused\n}\n";
  CHECK(check_same("regroup", regroup));
  static const char regroup3[] =
      "HloModule m\n\nfused {\n  p0 = f32[12,35]{1,0} parameter(0)\n  n = f32[12,35]{1,0} negate(p0)\n"
      "  t = f32[4,3,35]{1,2,0} bitcast(n)\n  ROOT c = f32[4,3,35]{2,1,0} copy(t)\n}\n\n"
      "ENTRY e {\n  x = f32[12,35] parameter(0)\n  ROOT f = f32[4,3,35] fusion(x), kind=kLoop, calls=fused\n}\n";
  CHECK(check_same("regroup3", regroup3));
  /* digits that regroup, read straight from the parameter's buffer (both
   * row-major: the element at the result's offset, elemental.c), the
   * innermost dim a power of two and not, split over two threads */
  static const char *const direct[2] = {
      "HloModule m\n\nfused {\n  p0 = f32[8,224,3]{2,1,0} parameter(0)\n  b = f32[8,14,48]{2,1,0} bitcast(p0)\n"
      "  ROOT n = f32[8,14,48]{2,1,0} negate(b)\n}\n\n"
      "ENTRY e {\n  x = f32[8,224,3] parameter(0)\n  ROOT f = f32[8,14,48] fusion(x), kind=kLoop, calls=fused\n}\n",
      "HloModule m\n\nfused {\n  p0 = s32[6,40,4]{2,1,0} parameter(0)\n  b = s32[6,10,16]{2,1,0} bitcast(p0)\n"
      "  ROOT n = s32[6,10,16]{2,1,0} negate(b)\n}\n\n"
      "ENTRY e {\n  x = s32[6,40,4] parameter(0)\n  ROOT f = s32[6,10,16] fusion(x), kind=kLoop, calls=fused\n}\n"};
  for (int i = 0; i < 2; i++) {
    CHECK(check_same("regroup_direct", direct[i]));
    CHECK(check_split("regroup_direct", direct[i]));
  }
  /* a result dim over a run of three operand dims (merged, the run in a
   * transposed order), and one over only part of a run (the division
   * path: [6, 5] read as [3, 10]) */
  static const char merge3[] =
      "HloModule m\n\nfused {\n  p0 = f32[2,3,4,5]{3,1,2,0} parameter(0)\n  n = f32[2,3,4,5]{3,1,2,0} negate(p0)\n"
      "  t = f32[5,24]{0,1} bitcast(n)\n  ROOT c = f32[5,24]{1,0} copy(t)\n}\n\n"
      "ENTRY e {\n  x = f32[2,3,4,5]{3,1,2,0} parameter(0)\n"
      "  ROOT f = f32[5,24]{1,0} fusion(x), kind=kLoop, calls=fused\n}\n";
  CHECK(check_same("merge3", merge3));
  CHECK(check_split("merge3", merge3));
  static const char part[] =
      "HloModule m\n\nfused {\n  p0 = f32[6,5]{1,0} parameter(0)\n  n = f32[6,5]{1,0} negate(p0)\n"
      "  ROOT b = f32[3,10]{1,0} bitcast(n)\n}\n\n"
      "ENTRY e {\n  x = f32[6,5] parameter(0)\n  ROOT f = f32[3,10] fusion(x), kind=kLoop, calls=fused\n}\n";
  CHECK(check_same("part_of_run", part));
}

/* The runtime's block mover itself (rt_transpose.c, which emit_transpose
 * calls), every path (AVX-512 and AVX2 vectors where this CPU has them,
 * plain element moves everywhere), against out[b][i][j] = src[b][j][i] written here:
 * a range of row blocks by a range of column blocks of a batch, the
 * elements outside it untouched; streamed with the output aligned (in
 * groups of four column blocks, 0 to 3 left over) and not (plain stores
 * then), and plain. */
static bool mover_case(int path, int64_t batch, int64_t rows, int64_t cols, int64_t i_lo, int64_t nb, int64_t j_lo,
                       int64_t nj, bool nt, int64_t shift) {
  int64_t n = batch * rows * cols;
  uint32_t *src = malloc((size_t)n * 4), *buf = aligned_alloc(64, (size_t)(n + 16) * 4);
  if (!src || !buf) {
    free(src);
    free(buf);
    return false;
  }
  uint32_t *out = buf + shift;
  for (int64_t k = 0; k < n; k++) src[k] = (uint32_t)(k * 2654435761u + 7);
  for (int64_t k = 0; k < n + 16 - shift; k++) out[k] = 0xdeadbeefu;
  codegen_rt_transpose32_path(path, src, out, rows, cols, i_lo, nb, j_lo, nj, nt);
  bool ok = true;
  for (int64_t i = 0; i < batch * rows && ok; i++)
    for (int64_t j = 0; j < cols && ok; j++) {
      bool in = i >= i_lo && i < i_lo + 16 * nb && j >= j_lo && j < j_lo + 16 * nj;
      int64_t b = i / rows, ii = i % rows;
      uint32_t want = in ? src[(b * cols + j) * rows + ii] : 0xdeadbeefu;
      if (out[i * cols + j] != want) {
        printf("    path %d batch %lld %lldx%lld rows [%lld, +%lld blocks) cols [%lld, +%lld) nt %d shift %lld: "
               "out[%lld][%lld] = %u, want %u\n",
               path, (long long)batch, (long long)rows, (long long)cols, (long long)i_lo, (long long)nb,
               (long long)j_lo, (long long)nj, nt, (long long)shift, (long long)i, (long long)j, out[i * cols + j],
               want);
        ok = false;
      }
    }
  free(src);
  free(buf);
  return ok;
}

TEST(block_mover) {
  static const char *const names[3] = {"plain", "AVX2", "AVX-512"};
  bool have[3] = {true, false, false};
#if defined(__x86_64__) && defined(__GNUC__)
  have[CG_TPATH_AVX2] = __builtin_cpu_supports("avx2");
  have[CG_TPATH_AVX512] = __builtin_cpu_supports("avx512f");
#endif
  for (int v = CG_TPATH_PLAIN; v <= CG_TPATH_AVX512; v++) {
    if (!have[v]) {
      printf("  block_mover: this CPU lacks %s: that path not run\n", names[v]);
      continue;
    }
    for (int left = 0; left < 4; left++) {
      int64_t nj = 8 + left;
      /* whole 2-D, then a middle range of blocks */
      CHECK(mover_case(v, 1, 48, 16 * nj, 0, 3, 0, nj, true, 0));
      CHECK(mover_case(v, 1, 64, 16 * nj + 16, 16, 2, 16, nj - 1, true, 0));
      CHECK(mover_case(v, 1, 48, 16 * nj, 0, 3, 0, nj, true, 4)); /* misaligned: plain stores */
      CHECK(mover_case(v, 1, 48, 16 * nj, 0, 3, 0, nj, false, 0));
    }
    /* a batch of 3 matrices of 32 x 48 (output rows over the batch); the
     * blocks of the second matrix only */
    CHECK(mover_case(v, 3, 32, 48, 0, 6, 0, 3, true, 0));
    CHECK(mover_case(v, 3, 32, 48, 32, 2, 16, 2, false, 0));
    /* columns not a multiple of 16 past the blocks (the caller moves them) */
    CHECK(mover_case(v, 1, 32, 40, 0, 2, 0, 2, true, 0));
  }
}

/* A tiled nest's rows are vectorized, not unrolled: LLVM unrolled a
 * tile's row of 32 elements whole into scalar loads gathered into
 * vectors (256 loads for a convolution's weight transform, reversed and
 * transposed, and 50 ms of compile). Checked on the optimized IR: some
 * vector loop, at most 64 scalar loads; results bit for bit. */
TEST(tile_rows_rolled) {
  static const char *text =
      "HloModule m\n\nf {\n  p = f32[3,3,64,128]{3,2,1,0} parameter(0)\n"
      "  r = f32[3,3,64,128]{3,2,1,0} reverse(p), dimensions={0,1}\n"
      "  b = f32[3,3,128,64]{2,3,1,0} bitcast(r)\n  ROOT c = f32[3,3,128,64]{3,2,1,0} copy(b)\n}\n\n"
      "ENTRY e {\n  w = f32[3,3,64,128]{3,2,1,0} parameter(0)\n"
      "  ROOT t = f32[3,3,128,64]{3,2,1,0} fusion(w), kind=kLoop, calls=f\n}\n";
  CHECK(check_same("weights", text));
  char dir[] = "/tmp/cxla_tiles_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  CpuCompileOptions co = {.struct_size = sizeof co, .dump_dir = dir};
  cxla_status s = cxla_module_parse(text, strlen(text), "rolled", &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_compile(m, &co, &x);
  CHECK_OK(s);
  char path[300], line[4096], cmd[400];
  snprintf(path, sizeof path, "%s/llvm_after_opt.ll", dir);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  int loads = 0, vloops = 0;
  while (f && fgets(line, sizeof line, f)) {
    loads += strstr(line, " = load float, ") != NULL;
    vloops += !strncmp(line, "vector.body", 11);
  }
  if (f) fclose(f);
  if (loads > 64 || vloops == 0) fprintf(stderr, "tile_rows_rolled: %d scalar loads, %d vector loops\n", loads, vloops);
  CHECK(loads <= 64 && vloops > 0);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
}

int main(void) {
  RUN(transposes);
  RUN(fused_and_layouts);
  RUN(register_blocks);
  RUN(units_and_batches);
  RUN(block_units);
  RUN(whole_rows);
  RUN(streamed_blocks);
  RUN(grouped_bitcasts);
  RUN(block_mover);
  RUN(tile_rows_rolled);
  return test_summary(__FILE__);
}
