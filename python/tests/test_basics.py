"""JAX on cxla: devices, transfers of every dtype, eager ops, jit, grad,
vmap, control flow, random numbers, donation, errors, threads. Expected
values come from numpy or from XLA:CPU in the same process."""
import os
import pathlib
import threading

import ml_dtypes
import numpy as np
import pytest

import jax
import jax.numpy as jnp
from jax import lax


def on(dev, fn, *args):
    return np.asarray(jax.jit(fn, device=dev)(*args)) if False else np.asarray(
        jax.jit(fn)(*[jax.device_put(a, dev) for a in args]))


def test_device(cxla):
    assert cxla.platform == "cxla"
    assert len(jax.devices("cxla")) == 1
    assert cxla.default_memory().kind == "device"


def test_snippet(cxla):
    x = jax.device_put(jnp.arange(4.0), cxla)
    got = jax.jit(lambda x: jnp.sin(x) ** 2)(x)
    assert got.devices() == {cxla}
    np.testing.assert_allclose(np.asarray(got), np.sin(np.arange(4.0)) ** 2, rtol=1e-6)


DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64,
          np.complex128, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3b11fnuz,
          ml_dtypes.int4, ml_dtypes.uint4]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_transfer_roundtrip(cxla, dtype):
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 7, size=(3, 5)).astype(np.float64)
    if np.dtype(dtype).kind == "c":
        raw = raw + 1j * raw[::-1]
    x = raw.astype(dtype)
    d = jax.device_put(x, cxla)
    assert d.dtype == x.dtype and d.shape == x.shape
    back = np.asarray(d)
    np.testing.assert_array_equal(back.view(np.uint8), x.view(np.uint8))
    # Strided (non-contiguous) host arrays arrive in logical order.
    for view in (x[:, ::2], x.T, x[::-1]):
        np.testing.assert_array_equal(np.asarray(jax.device_put(view, cxla)).astype(np.float64)
                                      if view.dtype.kind not in "cb" else
                                      np.asarray(jax.device_put(view, cxla)),
                                      view.astype(np.float64) if view.dtype.kind not in "cb" else view)


def test_copy_between_devices(cxla, cpu):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = jax.device_put(x, cxla)
    b = jax.device_put(a, cpu)
    c = jax.device_put(b, cxla)
    d = jax.device_put(a, cxla)  # same device: may alias or copy
    for arr in (b, c, d):
        np.testing.assert_array_equal(np.asarray(arr), x)
    assert c.devices() == {cxla}


def test_delete_and_ready(cxla):
    a = jax.device_put(np.ones(4, np.float32), cxla)
    a.block_until_ready()
    assert not a.is_deleted()
    a.delete()
    assert a.is_deleted()
    with pytest.raises(RuntimeError):
        np.asarray(a)


def test_eager_ops(cxla, cpu):
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    with jax.default_device(cxla):
        a = jnp.asarray(x)
        got = [jnp.exp(a), a @ a.T, jnp.sum(a, axis=0), jnp.argmax(a, axis=1), jnp.sort(a[::-1], 0),
               a.reshape(4, 3)[1:3], jnp.where(a > 0, a, -a), jnp.cumsum(a, 1)]
        assert all(g.devices() == {cxla} for g in got)
    with jax.default_device(cpu):
        b = jnp.asarray(x)
        want = [jnp.exp(b), b @ b.T, jnp.sum(b, axis=0), jnp.argmax(b, axis=1), jnp.sort(b[::-1], 0),
                b.reshape(4, 3)[1:3], jnp.where(b > 0, b, -b), jnp.cumsum(b, 1)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-6, atol=1e-6)


def both(cxla, cpu, fn, *args, rtol=1e-5, atol=1e-6):
    got = jax.tree.map(np.asarray, jax.jit(fn)(*[jax.device_put(a, cxla) for a in args]))
    want = jax.tree.map(np.asarray, jax.jit(fn)(*[jax.device_put(a, cpu) for a in args]))
    jax.tree.map(lambda g, w: np.testing.assert_allclose(g, w, rtol=rtol, atol=atol), got, want)
    return got


def test_grad(cxla, cpu):
    def loss(w, x):
        return jnp.sum(jnp.tanh(x @ w) ** 2)
    w = np.random.default_rng(1).normal(size=(4, 3)).astype(np.float32)
    x = np.random.default_rng(2).normal(size=(5, 4)).astype(np.float32)
    both(cxla, cpu, jax.grad(loss), w, x)
    both(cxla, cpu, jax.value_and_grad(loss, argnums=(0, 1)), w, x)


def test_vmap(cxla, cpu):
    x = np.random.default_rng(3).normal(size=(6, 4, 4)).astype(np.float32)
    both(cxla, cpu, jax.vmap(lambda m: m @ m.T + jnp.trace(m)), x)


def test_scan(cxla, cpu):
    def f(xs):
        def step(c, x):
            c = c * 0.9 + x
            return c, jnp.sin(c)
        return lax.scan(step, jnp.zeros(3, xs.dtype), xs)
    both(cxla, cpu, f, np.random.default_rng(4).normal(size=(10, 3)).astype(np.float32))


def test_fori_loop_and_while(cxla, cpu):
    f = lambda n, x: lax.fori_loop(0, n, lambda i, v: v * 1.5 + i, x)
    both(cxla, cpu, f, np.int32(7), np.ones(3, np.float32))
    g = lambda x: lax.while_loop(lambda v: v[0] < 100, lambda v: v * 2 + 1, x)
    both(cxla, cpu, g, np.ones(2, np.float32))


def test_cond(cxla, cpu):
    f = lambda p, x: lax.cond(p > 0, jnp.sin, jnp.cos, x)
    both(cxla, cpu, f, np.float32(1), np.arange(3, dtype=np.float32))
    both(cxla, cpu, f, np.float32(-1), np.arange(3, dtype=np.float32))


def test_platform_dependent(cxla, cpu):
    # cxla runs the cpu branch, as XLA:CPU does; with a default branch and
    # without one (which needs a branch for the lowering platform)
    f = lambda x: lax.platform_dependent(x, cpu=jnp.sin, default=jnp.cos)
    g = lambda x: lax.platform_dependent(x, cpu=jnp.sin, cuda=jnp.cos)
    x = np.arange(3, dtype=np.float32)
    for fn in (f, g):
        got = both(cxla, cpu, fn, x)
        np.testing.assert_allclose(np.asarray(got), np.sin(x), rtol=1e-6)
        got = both(cxla, cpu, jax.grad(lambda v: fn(v).sum()), x)
        np.testing.assert_allclose(np.asarray(got), np.cos(x), rtol=1e-6)


def test_export_as_cpu(cxla, cpu):
    # jax.export with cxla the default backend makes a 'cpu' artifact; one
    # exported for 'cpu' (alone, serialized, or among other platforms) runs
    # on cxla, the multi-platform one taking its cpu branch
    from jax import export
    x = np.arange(4, dtype=np.float32)
    exp = export.export(jax.jit(jnp.sin))(x)
    assert exp.platforms == ("cpu",)
    multi = export.export(jax.jit(lambda v: lax.platform_dependent(v, cpu=jnp.sin, default=jnp.cos)),
                          platforms=("tpu", "cpu"))(x)
    arts = [exp, multi]
    try:
        import flatbuffers  # noqa: F401  (jax's serialization needs it)
        arts.append(export.deserialize(exp.serialize()))
    except ImportError:
        pass
    for e in arts:
        got = e.call(jax.device_put(x, cxla))
        assert got.devices() == {cxla}
        np.testing.assert_allclose(np.asarray(got), np.sin(x), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(e.call(jax.device_put(x, cpu))), np.sin(x), rtol=1e-6)


def test_memory_kinds(cxla, cpu):
    # the device's memories are XLA:CPU's (device, pinned_host,
    # unpinned_host): arrays put in a host memory are there, a jit whose
    # out_shardings name one puts its result there, one that takes a host
    # array computes with it, and jax.device_put to host memory inside a
    # jit runs (all of them host memory to cxla)
    from jax.sharding import SingleDeviceSharding
    kinds = [m.kind for m in cxla.addressable_memories()]
    assert kinds == [m.kind for m in cpu.addressable_memories()] == ["device", "pinned_host", "unpinned_host"]
    assert cxla.default_memory().kind == "device"
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for kind in ("pinned_host", "unpinned_host"):
        s = SingleDeviceSharding(cxla, memory_kind=kind)
        h = jax.device_put(x, s)
        assert h.sharding.memory_kind == kind
        np.testing.assert_array_equal(np.asarray(h), x)
        f = jax.jit(lambda v: v * 2, out_shardings=s)
        y = f(jax.device_put(x, cxla))
        assert y.sharding.memory_kind == kind
        np.testing.assert_array_equal(np.asarray(y), x * 2)
        z = jax.jit(lambda v: v + 1)(h)
        np.testing.assert_array_equal(np.asarray(z), x + 1)
        back = jax.device_put(h, SingleDeviceSharding(cxla, memory_kind="device"))
        assert back.sharding.memory_kind == "device"
        np.testing.assert_array_equal(np.asarray(back), x)
    g = jax.jit(lambda v: jax.device_put(v * 2, jax.memory.Space.Host) + 1)
    np.testing.assert_array_equal(np.asarray(g(jax.device_put(x, cxla))), x * 2 + 1)


def test_collectives_on_one_device(cxla, cpu):
    # pmap's collectives over cxla's one device give XLA:CPU's results: the
    # operand (all_gather, psum_scatter, all_to_all, a ppermute to itself)
    # or zeros (a ppermute that sends nothing)
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 4)
    fs = [lambda v: jax.lax.all_gather(v, "i", tiled=True),
          lambda v: jax.lax.psum_scatter(v, "i", scatter_dimension=0, tiled=True),
          lambda v: jax.lax.all_to_all(v, "i", 0, 0, tiled=True),
          lambda v: jax.lax.ppermute(v, "i", [(0, 0)]),
          lambda v: jax.lax.ppermute(v, "i", []),
          lambda v: jax.lax.psum(v, "i") + jax.lax.axis_index("i")]
    for f in fs:
        got = jax.pmap(f, axis_name="i", devices=[cxla])(x)
        want = jax.pmap(f, axis_name="i", devices=[cpu])(x)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_views_outlive_deletion(cxla):
    # a NumPy view of a cxla array (the buffer protocol: an external
    # reference) keeps its memory after delete(); donating an array that
    # has one leaves it in place and runs, as on XLA:CPU
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = jax.device_put(x, cxla)
    view = memoryview(y)
    y.delete()
    assert view.tobytes() == x.tobytes()
    z = jax.device_put(x, cxla)
    a = np.asarray(z)
    out = jax.jit(lambda t: t + 1, donate_argnums=0)(z)
    assert not z.is_deleted()
    np.testing.assert_array_equal(np.asarray(out), x + 1)
    np.testing.assert_array_equal(a, x)


def test_buffer_callback(cxla):
    # jax.experimental.buffer_callback: the callback gets the operands
    # (read-only) and the results (written in place) as buffers of the
    # execution, readable through NumPy and DLPack; an aliased operand and
    # result share memory; one with a side effect runs unread
    from jax.experimental import buffer_callback as bc
    x = np.arange(12, dtype=np.float32).reshape(3, 4)

    def double(ctx, out, arg):
        assert ctx.stage == bc.ExecutionStage.EXECUTE
        assert arg.shape == out.shape == x.shape and arg.dtype == out.dtype == x.dtype
        assert not arg.writeable and out.writeable
        np.asarray(out)[...] = np.from_dlpack(arg) * 2

    f = bc.buffer_callback(double, jax.ShapeDtypeStruct(x.shape, x.dtype))
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: f(v) + 1)(jax.device_put(x, cxla))), x * 2 + 1)
    seen = []

    def aliased(ctx, out, arg):
        seen.append(np.asarray(arg).ctypes.data == np.asarray(out).ctypes.data)
        np.asarray(out)[...] += 1

    g = bc.buffer_callback(aliased, jax.ShapeDtypeStruct(x.shape, x.dtype), input_output_aliases={0: 0})
    np.testing.assert_array_equal(np.asarray(jax.jit(g)(jax.device_put(x, cxla))), x + 1)
    assert seen == [True]
    called = []
    h = bc.buffer_callback(lambda *_: called.append(1), jax.ShapeDtypeStruct((), jnp.float32), has_side_effect=True)
    with jax.default_device(cxla):
        jax.block_until_ready(jax.jit(h)())
    assert called == [1]


def test_pallas_core_map_interpret(cxla):
    # Pallas's core_map in interpret mode (two cores as two threads, each
    # running its program on cxla, meeting at a semaphore barrier): cpu's
    # lowering, as on XLA:CPU
    pl = pytest.importorskip("jax.experimental.pallas")
    pltpu = pytest.importorskip("jax.experimental.pallas.tpu")
    mesh = pltpu.create_tensorcore_mesh("x", num_cores=2)

    def f(x):
        def inner(refs):
            x_ref, y_ref = refs

            @pl.core_map(mesh, interpret=pltpu.InterpretParams())
            def _():
                def alloc(xv, yv, dma_sem, sem):
                    for i in range(2):
                        pl.semaphore_signal(sem, 1, core_index=i)
                    pl.semaphore_wait(sem, 2)
                    slc = pl.ds(jax.lax.axis_index("x") * 8, 8)
                    pltpu.async_copy(x_ref.at[slc], xv, dma_sem).wait()
                    yv[...] = xv[...] + jax.lax.axis_index("x") + 1
                    pltpu.async_copy(yv, y_ref.at[slc], dma_sem).wait()

                pl.run_scoped(alloc, pltpu.VMEM((8, 128), x_ref.dtype), pltpu.VMEM((8, 128), x_ref.dtype),
                              pltpu.SemaphoreType.DMA, pltpu.SemaphoreType.REGULAR)

        return pl.run_state(inner)((x, jnp.zeros_like(x)))[1]

    x = np.arange(16 * 128, dtype=np.int32).reshape(16, 128)
    with jax.default_device(cxla):
        y = jax.jit(f)(x)
    assert y.devices() == {cxla}
    want = (x.reshape(2, 8, 128) + 1 + np.arange(2, dtype=np.int32)[:, None, None]).reshape(x.shape)
    np.testing.assert_array_equal(np.asarray(y), want)


def test_dlpack(cxla):
    # DLPack with cxla as a CPU: a cxla array exports (NumPy takes it
    # without a copy; the view outlives delete()), and a NumPy tensor
    # imported onto cxla lands there
    x = jax.device_put(np.arange(6, dtype=np.float32).reshape(2, 3), cxla)
    assert x.__dlpack_device__()[1] == 0
    v = np.from_dlpack(x)
    assert v.ctypes.data == x.unsafe_buffer_pointer()
    x.delete()
    np.testing.assert_array_equal(v, np.arange(6, dtype=np.float32).reshape(2, 3))
    y = jax.dlpack.from_dlpack(np.arange(4, dtype=np.int32), device=cxla)
    assert y.devices() == {cxla}
    np.testing.assert_array_equal(np.asarray(jnp.from_dlpack(y) + 1), np.arange(4) + 1)


_CXLA_ALONE = """
import sys, tempfile, os
sys.path.insert(0, sys.argv[1])
import numpy as np, jax, jax.numpy as jnp
from importlib.metadata import entry_points
if not any(ep.name == "cxla" for ep in entry_points(group="jax_plugins")):
    import jax_cxla
    jax_cxla.initialize()
from jax.experimental import io_callback
assert [d.platform for d in jax.devices()] == ["cxla"]
f = jax.jit(lambda x: jax.pure_callback(lambda v: np.asarray(jnp.sin(v) * 2),
                                        jax.ShapeDtypeStruct((3,), jnp.float32), x) + 1)
np.testing.assert_allclose(np.asarray(f(jnp.arange(3.0))), np.sin(np.arange(3.0)) * 2 + 1, rtol=1e-6)
g = jax.jit(lambda x: io_callback(lambda v: np.asarray(v) + 5, jax.ShapeDtypeStruct((3,), jnp.float32), x))
np.testing.assert_array_equal(np.asarray(g(jnp.arange(3.0))), np.arange(3.0) + 5)
d = tempfile.mkdtemp()
jax.config.update("jax_compilation_cache_dir", d)
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
h = lambda v: jnp.cos(v) * 3
want = np.asarray(jax.jit(h)(jnp.arange(4.0)))
assert len(os.listdir(d)) >= 1, os.listdir(d)
jax.clear_caches()
np.testing.assert_array_equal(np.asarray(jax.jit(h)(jnp.arange(4.0))), want)
print("ok")
"""


def test_cxla_alone():
    # JAX_PLATFORMS=cxla alone: host callbacks get cxla's device for their
    # arrays (JAX asks for a cpu one), and JAX's persistent compilation
    # cache writes cxla executables and reads them back
    import subprocess
    import sys as _sys
    env = dict(os.environ, JAX_PLATFORMS="cxla")
    env.setdefault("CXLA_PJRT_LIBRARY", str(pathlib.Path(__file__).resolve().parents[2] / "build" / "libcxla_pjrt.so"))
    here = str(pathlib.Path(__file__).resolve().parents[1])
    r = subprocess.run([_sys.executable, "-c", _CXLA_ALONE, here], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_host_callbacks(cxla, capsys):
    # jax.debug.print (ordered and not), pure_callback with results,
    # io_callback, a print in a loop whose result nothing reads: each runs
    # exactly as often as on XLA:CPU, with the values of that moment
    from jax.experimental import io_callback

    seen = []

    @jax.jit
    def f(x):
        jax.debug.print("x={x}", x=x)
        y = jax.pure_callback(lambda a: np.sin(a), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        jax.debug.print("y0={y}", y=y[0], ordered=True)
        io_callback(lambda a: seen.append(float(a)), None, y[1], ordered=True)
        lax.fori_loop(0, 3, lambda i, c: (jax.debug.print("i={i}", i=i), c)[1], 0)
        return y * 2

    x = jax.device_put(np.arange(3, dtype=np.float32), cxla)
    got = f(x)
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(got), 2 * np.sin(np.arange(3, dtype=np.float32)), rtol=1e-6)
    out = capsys.readouterr().out.splitlines()
    assert out.count("x=[0. 1. 2.]") == 1 and out.count("y0=0.0") == 1
    assert [ln for ln in out if ln.startswith("i=")] == ["i=0", "i=1", "i=2"]
    assert seen == [pytest.approx(np.sin(1.0))]
    f(x)
    jax.effects_barrier()
    assert len(seen) == 2 and capsys.readouterr().out.count("x=") == 1


def test_host_callback_error_is_an_exception(cxla):
    def boom(a):
        raise ValueError("no thanks")

    f = jax.jit(lambda v: jax.pure_callback(boom, jax.ShapeDtypeStruct((), np.float32), v))
    with pytest.raises(Exception, match="no thanks"):
        np.asarray(f(jax.device_put(np.float32(1), cxla)))


def test_cpu_rules_registered_late(cxla):
    # jax.experimental.sparse registers its cpu lowering (a host callback
    # into scipy) when first imported, after the plugin initialized
    from jax.experimental import sparse
    from jax.experimental.sparse import linalg as sl
    a = np.array([[4, 1, 0], [1, 3, 0], [0, 0, 2]], np.float32)
    m = sparse.BCSR.fromdense(a)
    b = np.array([1, 2, 3], np.float32)
    x = sl.spsolve(*(jax.device_put(v, cxla) for v in (m.data, m.indices, m.indptr, b)))
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(a, b), rtol=1e-5)


def test_random(cxla, cpu):
    def f(seed):
        k = jax.random.key(seed)
        k1, k2 = jax.random.split(k)
        return (jax.random.normal(k1, (4, 3)), jax.random.uniform(k2, (5,)),
                jax.random.randint(k2, (6,), 0, 100), jax.random.bits(k1, (3,)))
    got = both(cxla, cpu, f, np.uint32(42))
    assert np.asarray(got[0]).std() > 0.1


def test_donation(cxla):
    x = jax.device_put(np.arange(8, dtype=np.float32), cxla)
    y = jax.jit(lambda v: v * 2, donate_argnums=0)(x)
    np.testing.assert_array_equal(np.asarray(y), np.arange(8, dtype=np.float32) * 2)
    assert x.is_deleted()
    z = jax.device_put(np.arange(8, dtype=np.float32), cxla)
    jax.jit(lambda v: v * 2)(z)
    assert not z.is_deleted()


def test_unsupported_op_is_an_exception(cxla):
    def f(x):
        return jax.ffi.ffi_call("cxla_test_no_such_target",
                                jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
    with pytest.raises(Exception, match="cxla_test_no_such_target"):
        jax.jit(f)(jax.device_put(np.ones(3, np.float32), cxla))
    # The client still works afterwards.
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: v + 1)(jax.device_put(np.ones(2), cxla))), 2)


def test_threads(cxla):
    f = jax.jit(lambda a, b: jnp.tanh(a) * b + a.sum())
    errors = []

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(20):
                a = rng.normal(size=(16,)).astype(np.float32)
                b = rng.normal(size=(16,)).astype(np.float32)
                got = np.asarray(f(jax.device_put(a, cxla), jax.device_put(b, cxla)))
                want = np.tanh(a) * b + a.sum(dtype=np.float32)
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[0]


def test_executable_metadata(cxla):
    x = jax.device_put(np.ones((2, 3), np.float32), cxla)
    compiled = jax.jit(lambda v: (v.sum(0), v.astype(jnp.int32))).lower(x).compile()
    out = compiled(x)
    assert out[0].shape == (3,) and out[1].dtype == jnp.int32
