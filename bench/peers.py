"""The peers of `make bench`: IREE, PyTorch (eager and torch.compile) and numpy.

bench/run.py runs each case through XLA:CPU and cxla, then through every
peer installed in the bench venv, on the same arguments (see bench/README.md):

* IREE compiles the StableHLO that JAX lowers for the case (the same program
  as module.hlo) for `llvm-cpu` on the host CPU and runs it with the
  `local-task` driver. Compile time = JAX's lowering + IREE's compile + load.
* torch eager and torch.compile run a hand-written equivalent of the case
  (TORCH below, one builder per case, mirroring bench/gen.py). Convolution
  cases run in both memory layouts (contiguous NCHW and channels_last); the
  faster is reported, and which one. torch.compile's compile time is its
  first call (tracing + Inductor + one run).
* numpy runs the cases it expresses (NUMPY below). Not int8 matmul: numpy
  has no integer GEMM kernel (a 1024^3 one takes most of a minute).

A peer that is not installed, or has no equivalent of a case, or fails on
it, shows "—" and a note. Every peer's results are compared against XLA's;
a peer whose results disagree (relative error above MISMATCH) is reported
but never counted as the fastest peer.
"""

import os
import subprocess
import sys
import time

PEERS = ("iree", "torch", "torch_compile", "numpy")
LABEL = {"iree": "IREE", "torch": "torch eager", "torch_compile": "torch.compile",
         "numpy": "numpy"}
# Relative error against XLA above which a peer's result is not the same
# program (bf16 cases: 5e-2, as peers may round or accumulate bf16 differently).
MISMATCH = 1e-2
COMPILED = ("iree", "torch_compile")  # the peers with a compile step
MISMATCH_BF16 = 5e-2


def versions():
    """{peer: version string, or None} and {peer: why not} for the peers here."""
    have, why = {}, {}
    try:
        import iree.compiler
        import iree.runtime
        have["iree"] = getattr(iree.compiler, "__version__", None) or _dist_version(
            "iree-base-compiler")
    except Exception as err:  # noqa: BLE001 -- any import failure means "not installed"
        why["iree"] = "not installed (%s)" % str(err)[:120]
    try:
        import torch
        have["torch"] = have["torch_compile"] = torch.__version__
    except Exception as err:  # noqa: BLE001
        why["torch"] = why["torch_compile"] = "not installed (%s)" % str(err)[:120]
    try:
        import numpy
        have["numpy"] = numpy.__version__
    except ImportError as err:
        why["numpy"] = "not installed (%s)" % err
    return have, why


def _dist_version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # noqa: BLE001
        return "unknown"


# most timed calls min_s adds up to (cxla bench --min-seconds's bound)
MAX_RUNS = 1000000


def timed_runs(fn, warmup, iters, max_s, warmup_s=0.0, min_s=0.0):
    """(sorted run times, first result): one call first (its result kept),
    then warmup - 1 more and more still until the warm-up has taken
    warmup_s seconds, then iters timed calls and more until they have taken
    min_s seconds together, within max_s seconds. Every side's timing
    (XLA's in run.py, each peer's here)."""
    start = time.perf_counter()
    first = fn()
    w = 1
    while w < warmup or (warmup > 0 and time.perf_counter() - start < warmup_s):
        if time.perf_counter() - start > max_s:
            break
        fn()
        w += 1
    samples, timed = [], 0.0
    while len(samples) < max(1, iters) or (timed < min_s and len(samples) < MAX_RUNS):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
        timed += samples[-1]
        if time.perf_counter() - start > max_s:
            break
    return sorted(samples), first


def median(s):
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def time_calls(fn, warmup, iters, max_s, warmup_s=0.0, min_s=0.0):
    """(median seconds, first result) of timed_runs."""
    s, first = timed_runs(fn, warmup, iters, max_s, warmup_s, min_s)
    return median(s), first


def entry(status, note="", **kw):
    e = {"status": status, "run_s": None, "compile_s": None, "rel_err": None,
         "variant": None, "note": note}
    e.update(kw)
    return e


# ---------------------------------------------------------------------------
# IREE
# ---------------------------------------------------------------------------

# Cases a peer runs so slowly that one call would stall the whole run (a
# call into IREE cannot be interrupted from Python): shown as "—".
SKIP = {
    ("iree", "sort_1m"): "skipped: IREE's CPU sort of f32[1M] did not finish one call in "
                         "10 minutes (2026-12-02, IREE 3.13)",
}


def run_iree(ctx):
    """ctx: dict with np, stablehlo (text), lower_s, arrays, want, compare, o."""
    import iree.compiler as ic
    import iree.runtime as rt
    np = ctx["np"]
    t0 = time.perf_counter()
    vmfb = ic.compile_str(ctx["stablehlo"], target_backends=["llvm-cpu"],
                          input_type="stablehlo",
                          extra_args=["--iree-llvmcpu-target-cpu=host"])
    config = rt.Config("local-task")
    sysctx = rt.SystemContext(config=config)
    vm = rt.VmModule.copy_buffer(sysctx.instance, vmfb)
    sysctx.add_vm_module(vm)
    fn = sysctx.modules[vm.name]["main"]
    compile_s = ctx["lower_s"] + time.perf_counter() - t0
    args = []
    for a in ctx["arrays"]:
        # (not np.ascontiguousarray: it turns a 0-d array into a 1-d one)
        args.append(rt.asdevicearray(config.device, np.array(a, order="C", copy=True)))
    o = ctx["o"]
    med, first = time_calls(lambda: fn(*args), o.warmup, o.iters, o.xla_max_seconds,
                             getattr(o, "warmup_s", 0.0), getattr(o, "min_s", 0.0))
    outs = first if isinstance(first, (list, tuple)) else [first]
    got = [np.asarray(r.to_host() if hasattr(r, "to_host") else r) for r in outs]
    return entry("ok", run_s=med, compile_s=compile_s, rel_err=ctx["compare"](got))


# ---------------------------------------------------------------------------
# torch: one builder per case
# ---------------------------------------------------------------------------
# A builder gets (torch, numpy arrays in case.json order, layout) and returns
# (fn, post): fn() computes the case, post(result) gives numpy arrays in the
# order and layout of the JAX function's result leaves (not timed). Builders
# of convolution cases take layout "nchw" or "channels_last"; others None.

TORCH = {}
CONV_LAYOUTS = ("nchw", "channels_last")


def torch_case(*names, layouts=(None,)):
    def deco(build):
        for n in names:
            TORCH[n] = (build, layouts)
        return build
    return deco


def _t(torch, a):
    return torch.from_numpy(a.copy()) if a.ndim else torch.tensor(a)


def _np_list(res):
    if not isinstance(res, (list, tuple)):
        res = [res]
    out = []
    for r in res:
        if isinstance(r, (list, tuple)):
            out += _np_list(r)
        else:
            r = r.detach()
            out.append(r.float().numpy() if str(r.dtype) == "torch.bfloat16" else r.numpy())
    return out


def _ident(res):
    return _np_list(res)


def _mem(torch, x, layout):
    if layout == "channels_last":
        return x.contiguous(memory_format=torch.channels_last)
    return x.contiguous()


def _nhwc_to_nchw(torch, a, layout):
    return _mem(torch, _t(torch, a).permute(0, 3, 1, 2), layout)


def _hwio_to_oihw(torch, w):
    return _t(torch, w).permute(3, 2, 0, 1).contiguous()


def _to_nhwc(res):
    return [r.permute(0, 2, 3, 1).contiguous() for r in
            (res if isinstance(res, (list, tuple)) else [res])]


@torch_case("gelu_tanh_16m")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.nn.functional.gelu(x, approximate="tanh")), _ident


@torch_case("sin_sq_16m")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.sin(x) ** 2), _ident


@torch_case("chain6_16m")
def _(torch, a, layout):
    x, y = (_t(torch, v) for v in a)

    def f():
        t = torch.clamp_min((x * y + x) * 0.5 - y, 0.0)
        return t * t
    return f, _ident


@torch_case("softmax_4096")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.softmax(x, -1)), _ident


@torch_case("layernorm_4096")
def _(torch, a, layout):
    x, g, b = (_t(torch, v) for v in a)
    return (lambda: torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, 1e-5)), _ident


@torch_case("reduce_rows_4096")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.sum(x, 1)), _ident


@torch_case("reduce_cols_4096")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.sum(x, 0)), _ident


@torch_case("transpose_4096")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: x.t().contiguous()), _ident


@torch_case("cumsum_1m")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.cumsum(x, 0)), _ident


@torch_case("sort_1m")
def _(torch, a, layout):
    x = _t(torch, a[0])
    return (lambda: torch.sort(x).values), _ident


@torch_case("matmul_f32_256", "matmul_f32_1024", "matmul_f32_2048", "matmul_f64_1024",
            "bmm_f32_32x256")
def _(torch, a, layout):
    x, y = (_t(torch, v) for v in a)
    return (lambda: torch.matmul(x, y)), _ident


@torch_case("matmul_bf16_1024")
def _(torch, a, layout):
    x, y = (_t(torch, v.view("uint16")).view(torch.bfloat16) for v in a)
    return (lambda: x @ y), _ident


@torch_case("matmul_bf16_f32acc_1024")
def _(torch, a, layout):
    # torch has no CPU bf16 x bf16 -> f32 matmul: widen, then an f32 matmul
    # (the same products and an f32 sum; the conversion is timed).
    x, y = (_t(torch, v.view("uint16")).view(torch.bfloat16) for v in a)
    return (lambda: x.float() @ y.float()), _ident


@torch_case("matmul_s8_1024")
def _(torch, a, layout):
    x, y = (_t(torch, v) for v in a)
    try:
        torch._int_mm(x[:32, :32].contiguous(), y[:32, :32].contiguous())
        return (lambda: torch._int_mm(x, y)), _ident
    except (RuntimeError, AttributeError):
        xi, yi = x.int(), y.int()
        return (lambda: xi @ yi), _ident


@torch_case("conv_resnet_nhwc", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    x, w = _nhwc_to_nchw(torch, a[0], layout), _hwio_to_oihw(torch, a[1])
    return (lambda: torch.nn.functional.conv2d(x, w, padding=1)), _to_nhwc


@torch_case("conv_resnet_nchw", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    x, w = _mem(torch, _t(torch, a[0]), layout), _t(torch, a[1])
    return (lambda: torch.nn.functional.conv2d(x, w, padding=1)), \
        (lambda r: [r.contiguous()])


@torch_case("conv_depthwise", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    x, w = _nhwc_to_nchw(torch, a[0], layout), _hwio_to_oihw(torch, a[1])
    c = x.shape[1]
    return (lambda: torch.nn.functional.conv2d(x, w, padding=1, groups=c)), _to_nhwc


@torch_case("conv_transpose", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    # The input gradient of a stride-2 SAME conv (padding 0 low, 1 high):
    # conv_transpose2d with padding 0 gives 57x57, the first 56 are it.
    g, w = _nhwc_to_nchw(torch, a[0], layout), _hwio_to_oihw(torch, a[1])
    return (lambda: torch.nn.functional.conv_transpose2d(g, w, stride=2)[:, :, :56, :56]), \
        _to_nhwc


@torch_case("maxpool", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    x = _nhwc_to_nchw(torch, a[0], layout)
    return (lambda: torch.nn.functional.max_pool2d(x, 2)), _to_nhwc


@torch_case("maxpool_grad", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    x = _nhwc_to_nchw(torch, a[0], layout).requires_grad_()
    g = _nhwc_to_nchw(torch, a[1], layout)

    def f():
        return torch.autograd.grad(torch.nn.functional.max_pool2d(x, 2), x, g)[0]
    return f, _to_nhwc


@torch_case("gather_embedding")
def _(torch, a, layout):
    t, ids = _t(torch, a[0]), _t(torch, a[1]).long()
    return (lambda: torch.index_select(t, 0, ids)), _ident


@torch_case("scatter_add_embedding")
def _(torch, a, layout):
    ids, g = _t(torch, a[0]).long(), _t(torch, a[1])
    return (lambda: torch.zeros(32768, g.shape[1]).index_add_(0, ids, g)), _ident


@torch_case("tiny_scalar3")
def _(torch, a, layout):
    x, y, z = (_t(torch, v) for v in a)
    return (lambda: torch.sin(x * y + z)), _ident


@torch_case("rnn_scan_100")
def _(torch, a, layout):
    xs, h0, wx, wh, b = (_t(torch, v) for v in a)

    def f():
        h, sums = h0, []
        for t in range(xs.shape[0]):
            h = torch.tanh(xs[t] @ wx + h @ wh + b)
            sums.append(torch.sum(h))
        return h, torch.stack(sums)
    return f, _ident


@torch_case("lstm_256")
def _(torch, a, layout):
    xs, h0, c0, wx, wh, b = (_t(torch, v) for v in a)

    def f():
        h, c, ys = h0, c0, []
        for t in range(xs.shape[0]):
            i, fg, g, o = torch.chunk(xs[t] @ wx + h @ wh + b, 4, -1)
            c = torch.sigmoid(fg) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
            ys.append(h)
        return torch.stack(ys), h, c
    return f, _ident


def _params(torch, arrays):
    return [_t(torch, v).requires_grad_() for v in arrays]


def _xent(torch, logits, y):
    return torch.nn.functional.cross_entropy(logits, y)


def _sgd(torch, loss_fn, params, lr):
    def f(*data):
        loss = loss_fn(params, *data)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            return [loss.detach()] + [p - lr * g for p, g in zip(params, grads)]
    return f


@torch_case("mlp_train_step")
def _(torch, a, layout):
    params = _params(torch, a[:6])
    x, y = _t(torch, a[6]), _t(torch, a[7]).long()

    def loss_fn(p, x, y):
        h = x
        for i in range(0, len(p) - 2, 2):
            h = torch.relu(h @ p[i] + p[i + 1])
        return _xent(torch, h @ p[-2] + p[-1], y)
    step = _sgd(torch, loss_fn, params, 0.1)
    return (lambda: step(x, y)), _ident


@torch_case("cnn_train_step", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    F = torch.nn.functional
    w1, b1, w2, b2, wd, bd = (_t(torch, v) for v in a[:6])
    params = [_mem(torch, w1.permute(3, 2, 0, 1), layout).requires_grad_(), b1.requires_grad_(),
              _mem(torch, w2.permute(3, 2, 0, 1), layout).requires_grad_(), b2.requires_grad_(),
              wd.requires_grad_(), bd.requires_grad_()]
    x = _nhwc_to_nchw(torch, a[6], layout)
    y = _t(torch, a[7]).long()

    def loss_fn(p, x, y):
        h = F.max_pool2d(torch.relu(F.conv2d(x, p[0], p[1], padding=1)), 2)
        h = F.max_pool2d(torch.relu(F.conv2d(h, p[2], p[3], padding=1)), 2)
        h = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1)  # NHWC flattening, as in JAX
        return _xent(torch, h @ p[4] + p[5], y)
    step = _sgd(torch, loss_fn, params, 0.05)

    def post(res):
        res = _np_list(res)
        res[1] = res[1].transpose(2, 3, 1, 0)  # OIHW -> HWIO
        res[3] = res[3].transpose(2, 3, 1, 0)
        return res
    return (lambda: step(x, y)), post


def _layer_norm(torch, x, g, b):
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, 1e-5)


def _attention(torch, q, k, v, heads):
    S, D = q.shape
    q, k, v = (t.reshape(S, heads, D // heads).transpose(0, 1) for t in (q, k, v))
    o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    return o.transpose(0, 1).reshape(S, D)


def _transformer(torch, p, x, approx):
    g1, b1, wq, wk, wv, wo, g2, b2, w1, c1, w2, c2 = p
    h = _layer_norm(torch, x, g1, b1)
    x = x + _attention(torch, h @ wq, h @ wk, h @ wv, 8) @ wo
    h = _layer_norm(torch, x, g2, b2)
    return x + torch.nn.functional.gelu(h @ w1 + c1, approximate=approx) @ w2 + c2


@torch_case("transformer_fwd")
def _(torch, a, layout):
    p, x = [_t(torch, v) for v in a[:12]], _t(torch, a[12])
    # jax.nn.gelu's default is the tanh approximation.
    return (lambda: _transformer(torch, p, x, "tanh")), _ident


@torch_case("transformer_fwd_bwd")
def _(torch, a, layout):
    p, x = _params(torch, a[:12]), _t(torch, a[12])

    def f():
        loss = torch.mean(_transformer(torch, p, x, "tanh") ** 2)
        return [loss.detach()] + list(torch.autograd.grad(loss, p))
    return f, _ident


@torch_case("gpt2_block_1024")
def _(torch, a, layout):
    g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, c1, w2, c2 = (_t(torch, v) for v in a[:12])
    x = _t(torch, a[12])

    def f():
        h = _layer_norm(torch, x, g1, b1)
        q, k, v = torch.chunk(h @ wqkv + bqkv, 3, -1)
        y = x + _attention(torch, q, k, v, 12) @ wo + bo
        h = _layer_norm(torch, y, g2, b2)
        return y + torch.nn.functional.gelu(h @ w1 + c1, approximate="tanh") @ w2 + c2
    return f, _ident


def _bn(torch, x, g, b):
    return torch.nn.functional.batch_norm(x, None, None, g, b, training=True, eps=1e-5)


def _resnet_torch(torch, a, layout, grad):
    F = torch.nn.functional
    w1, g1, b1, w2, g2, b2 = (_t(torch, v) for v in a[:6])
    p = [_mem(torch, w1.permute(3, 2, 0, 1), layout), g1, b1,
         _mem(torch, w2.permute(3, 2, 0, 1), layout), g2, b2]
    x = _nhwc_to_nchw(torch, a[6], layout)
    if grad:
        p = [t.requires_grad_() for t in p]
        x.requires_grad_()

    def block():
        h = torch.relu(_bn(torch, F.conv2d(x, p[0], padding=1), p[1], p[2]))
        return torch.relu(_bn(torch, F.conv2d(h, p[3], padding=1), p[4], p[5]) + x)
    if not grad:
        return block, _to_nhwc

    def f():
        loss = torch.mean(block() ** 2)
        return [loss.detach()] + list(torch.autograd.grad(loss, p + [x]))

    def post(res):
        res = _np_list(res)
        res[1] = res[1].transpose(2, 3, 1, 0)
        res[4] = res[4].transpose(2, 3, 1, 0)
        res[7] = res[7].transpose(0, 2, 3, 1)
        return res
    return f, post


@torch_case("resnet_block_fwd", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    return _resnet_torch(torch, a, layout, False)


@torch_case("resnet_block_fwd_bwd", layouts=CONV_LAYOUTS)
def _(torch, a, layout):
    return _resnet_torch(torch, a, layout, True)


@torch_case("vae_train_step")
def _(torch, a, layout):
    params = _params(torch, a[:10])
    x, eps = _t(torch, a[10]), _t(torch, a[11])

    def loss_fn(p, x, eps):
        we1, be1, wmu, bmu, wlv, blv, wd1, bd1, wd2, bd2 = p
        h = torch.relu(x @ we1 + be1)
        mu, logvar = h @ wmu + bmu, h @ wlv + blv
        z = mu + torch.exp(0.5 * logvar) * eps
        logits = torch.relu(z @ wd1 + bd1) @ wd2 + bd2
        rec = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, x, reduction="none").sum(-1)
        kl = -0.5 * torch.sum(1 + logvar - mu ** 2 - torch.exp(logvar), -1)
        return torch.mean(rec + kl)
    step = _sgd(torch, loss_fn, params, 1e-3)
    return (lambda: step(x, eps)), _ident


@torch_case("adam_10m")
def _(torch, a, layout):
    p, g, m, v, t = (_t(torch, x) for x in a)
    b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8

    def f():
        m2 = b1 * m + (1 - b1) * g
        v2 = b2 * v + (1 - b2) * g * g
        mhat = m2 / (1 - b1 ** t)
        vhat = v2 / (1 - b2 ** t)
        return p - lr * mhat / (torch.sqrt(vhat) + eps), m2, v2
    return f, _ident


def run_torch(ctx, compiled):
    """torch eager (compiled=False) or torch.compile on ctx's case; the faster
    layout where the builder has several."""
    import torch
    name, np = ctx["name"], ctx["np"]
    if name not in TORCH:
        return entry("n/a", "no torch equivalent of this case")
    build, layouts = TORCH[name]
    best = None
    o = ctx["o"]
    for layout in layouts:
        fn, post = build(torch, ctx["arrays"], layout)
        compile_s = None
        if compiled:
            torch._dynamo.reset()
            fn = torch.compile(fn)
            t0 = time.perf_counter()
            fn()  # tracing, Inductor's compile and one run
            compile_s = time.perf_counter() - t0
        with torch.inference_mode(False):
            med, first = time_calls(fn, o.warmup, o.iters, o.xla_max_seconds,
                             getattr(o, "warmup_s", 0.0), getattr(o, "min_s", 0.0))
        got = [np.asarray(r) for r in post(first)]
        e = entry("ok", run_s=med, compile_s=compile_s, rel_err=ctx["compare"](got),
                  variant=layout)
        if best is None or _better(e, best):
            best = e
    return best


def _better(a, b):
    """Is peer result a better than b (agreeing results first, then faster)?"""
    ok_a = a["rel_err"] is not None and a["rel_err"] <= MISMATCH
    ok_b = b["rel_err"] is not None and b["rel_err"] <= MISMATCH
    if ok_a != ok_b:
        return ok_a
    return a["run_s"] < b["run_s"]


# ---------------------------------------------------------------------------
# numpy
# ---------------------------------------------------------------------------

def _np_gelu(np, x):
    c = np.float32(np.sqrt(2 / np.pi))
    return 0.5 * x * (1 + np.tanh(c * (x + np.float32(0.044715) * x ** 3)))


def _np_softmax(np, x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_layernorm(np, x, g, b):
    mu = x.mean(-1, keepdims=True)
    var = np.square(x - mu).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + np.float32(1e-5)) * g + b


def _np_chain6(np, x, y):
    t = np.maximum((x * y + x) * np.float32(0.5) - y, np.float32(0))
    return t * t


def _np_rnn(np, xs, h0, wx, wh, b):
    h, sums = h0, []
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
        sums.append(h.sum())
    return h, np.array(sums, np.float32)


def _np_scatter_add(np, ids, g):
    out = np.zeros((32768, g.shape[1]), g.dtype)
    np.add.at(out, ids, g)
    return out


def _np_adam(np, p, g, m, v, t):
    f = np.float32
    m2 = f(0.9) * m + f(0.1) * g
    v2 = f(0.999) * v + f(0.001) * g * g
    mhat = m2 / (f(1) - f(0.9) ** t)
    vhat = v2 / (f(1) - f(0.999) ** t)
    return p - f(1e-3) * mhat / (np.sqrt(vhat) + f(1e-8)), m2, v2


NUMPY = {
    "gelu_tanh_16m": _np_gelu,
    "sin_sq_16m": lambda np, x: np.sin(x) ** 2,
    "chain6_16m": _np_chain6,
    "softmax_4096": _np_softmax,
    "layernorm_4096": _np_layernorm,
    "reduce_rows_4096": lambda np, x: x.sum(1),
    "reduce_cols_4096": lambda np, x: x.sum(0),
    "transpose_4096": lambda np, x: np.ascontiguousarray(x.T),
    "cumsum_1m": lambda np, x: np.cumsum(x),
    "sort_1m": lambda np, x: np.sort(x),
    "matmul_f32_256": lambda np, a, b: a @ b,
    "matmul_f32_1024": lambda np, a, b: a @ b,
    "matmul_f32_2048": lambda np, a, b: a @ b,
    "matmul_f64_1024": lambda np, a, b: a @ b,
    "bmm_f32_32x256": lambda np, a, b: a @ b,
    "gather_embedding": lambda np, t, ids: np.take(t, ids, axis=0),
    "scatter_add_embedding": _np_scatter_add,
    "tiny_scalar3": lambda np, a, b, c: np.sin(a * b + c),
    "rnn_scan_100": _np_rnn,
    "adam_10m": _np_adam,
}


def run_numpy(ctx):
    np, name = ctx["np"], ctx["name"]
    if name not in NUMPY:
        return entry("n/a", "numpy does not express this case")
    f = NUMPY[name]
    args = [a[()] if a.ndim == 0 else a for a in ctx["arrays"]]
    o = ctx["o"]
    med, first = time_calls(lambda: f(np, *args), o.warmup, o.iters, o.xla_max_seconds,
                             getattr(o, "warmup_s", 0.0), getattr(o, "min_s", 0.0))
    got = [np.asarray(r) for r in (first if isinstance(first, tuple) else [first])]
    return entry("ok", run_s=med, rel_err=ctx["compare"](got))


# ---------------------------------------------------------------------------
# all peers on one case, and the summary fields
# ---------------------------------------------------------------------------

def run_all(ctx, have, why, only=None):
    """{peer: entry} for one case. ctx: name, np, arrays (case.json order),
    stablehlo, lower_s, compare (got -> rel err vs XLA), o (options)."""
    out = {}
    bf16 = any(a.dtype.name == "bfloat16" for a in ctx["arrays"])
    limit = MISMATCH_BF16 if bf16 else MISMATCH
    for peer in PEERS:
        if only is not None and peer not in only:
            continue
        if peer not in have:
            out[peer] = entry("n/a", why.get(peer, "not installed"))
            continue
        if (peer, ctx["name"]) in SKIP:
            out[peer] = entry("n/a", SKIP[(peer, ctx["name"])])
            continue
        try:
            if peer == "iree":
                r = run_iree(ctx)
            elif peer == "torch":
                r = run_torch(ctx, False)
            elif peer == "torch_compile":
                r = run_torch(ctx, True)
            else:
                r = run_numpy(ctx)
        except Exception as err:  # noqa: BLE001 -- a peer failing on a case is reported
            msg = [ln.strip() for ln in str(err).strip().splitlines() if ln.strip()]
            r = entry("error", "%s: %s" % (type(err).__name__, " / ".join(msg[:2])[:240]))
        out[peer] = judge(r, limit)
    return out


def judge(r, limit=MISMATCH):
    """Marks an "ok" peer entry "mismatch" when its results differ from XLA's."""
    if r["status"] == "ok" and (r["rel_err"] is None or r["rel_err"] > limit):
        r["status"] = "mismatch"
        r["note"] = "results differ from XLA's (rel err %s)" % (
            "n/a" if r["rel_err"] is None else "%.2g" % r["rel_err"])
    return r


def fill(e, peers):
    """Copies per-peer figures into the case entry e and sets best_peer,
    best_peer_run_s and the ratios of cxla and XLA to it."""
    e["peers"] = peers
    best = None
    for peer in PEERS:
        r = peers.get(peer)
        if r is None:
            continue
        e["%s_run_s" % peer] = r["run_s"] if r["status"] == "ok" else None
        if peer in COMPILED:  # (no "torch_compile_s": it would read as torch.compile's)
            e["%s_compile_s" % peer] = r["compile_s"] if r["status"] == "ok" else None
        if r["status"] == "ok" and r["run_s"] and (best is None or r["run_s"] < best[1]):
            best = (peer, r["run_s"])
    e["best_peer"], e["best_peer_run_s"] = best if best else (None, None)
    bp = e["best_peer_run_s"]
    e["run_ratio_best_peer"] = e["cxla_run_s"] / bp if bp and e.get("cxla_run_s") else None
    e["xla_ratio_best_peer"] = e["xla_run_s"] / bp if bp and e.get("xla_run_s") else None
    for peer in PEERS:
        r = peers.get(peer)
        if r and r["status"] not in ("ok", "n/a"):
            e.setdefault("notes", []).append("%s: %s" % (LABEL[peer], r["note"]))


# ---------------------------------------------------------------------------
# installing (make bench): each peer on its own, failures logged, not fatal
# ---------------------------------------------------------------------------

def install(requirements, log_path):
    """pip-installs each "# peer: NAME" group of the requirements file into
    this interpreter's environment; writes "ok NAME" or "FAILED NAME reqs"
    per group to log_path (run.py reads it). Returns 0 always."""
    groups, cur = [], None
    with open(requirements) as fh:
        for line in fh:
            line = line.strip()
            if line.startswith("# peer:"):
                cur = (line.split(":", 1)[1].strip(), [])
                groups.append(cur)
            elif line and not line.startswith("#") and cur is not None:
                cur[1].append(line)
    lines = []
    for name, reqs in groups:
        cmd = [sys.executable, "-m", "pip", "install", "-q"] + reqs
        print("installing peer %s: %s" % (name, " ".join(reqs)), flush=True)
        try:
            rc = subprocess.run(cmd).returncode
        except OSError as err:
            print("  %s" % err)
            rc = 1
        if rc == 0:
            lines.append("ok %s %s" % (name, " ".join(reqs)))
        else:
            print("warning: peer %s failed to install (pip exit %d); `make bench` runs "
                  "without it" % (name, rc), flush=True)
            lines.append("FAILED %s %s" % (name, " ".join(reqs)))
    with open(log_path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="install the peers of make bench")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--install", metavar="REQUIREMENTS",
                    default=os.path.join(here, "requirements-peers.txt"))
    ap.add_argument("--log", default=os.path.join(here, ".venv", "peers-install.log"))
    o = ap.parse_args()
    sys.exit(install(o.install, o.log))
