"""jax-cxla: registers the PJRT plugin for the platform `cxla` with JAX.

JAX finds this module through the `jax_plugins` entry point and calls
initialize(); then JAX_PLATFORMS=cxla (or cxla,cpu) runs programs on cxla.
$CXLA_PJRT_LIBRARY overrides the bundled library's path;
$CXLA_PJRT_BACKEND picks the cxla backend ("cpu", "interp")."""
import ctypes
import dataclasses
import os
import pathlib
import threading

PLATFORM = "cxla"


def library_path() -> str:
    env = os.environ.get("CXLA_PJRT_LIBRARY")
    if env:
        return env
    return str(pathlib.Path(__file__).resolve().parent / "libcxla_pjrt.so")


class _WithCpuRules(dict):
    """cxla's platform-specific lowering rules: its own, else cpu's -- also
    those registered after initialization (jax.experimental.sparse and the
    like register theirs when first imported)."""

    def __init__(self, own, cpu):
        super().__init__(own)
        self._cpu = cpu

    def __contains__(self, prim):
        return (dict.__contains__(self, prim) or prim in self._cpu
                or getattr(prim, "name", None) in _LAZY_RULES)

    def __getitem__(self, prim):
        if dict.__contains__(self, prim):
            return dict.__getitem__(self, prim)
        name = getattr(prim, "name", None)
        if name in _LAZY_RULES and prim not in self._cpu:
            from jax._src.interpreters import mlir
            return mlir.LoweringRuleEntry(_LAZY_RULES[name](), True)
        return self._cpu[prim]

    def get(self, prim, default=None):
        return self[prim] if prim in self else default


def _mpmd_map_rule():
    # Pallas's core_map / mpmd_map names the platforms it lowers for (cpu's
    # is the fallback that runs the kernel's jaxpr, Pallas's interpret
    # mode): cxla takes cpu's
    from jax._src.pallas import mpmd
    return mpmd._mpmd_map_fallback_lowering


def _buffer_callback_rule():
    return _buffer_callback_lowering


# Rules for primitives of modules JAX imports on demand (Pallas,
# jax.experimental.buffer_callback), by the primitive's name: each made
# when a lowering first asks, so that initialization imports none of them.
_LAZY_RULES = {"mpmd_map": _mpmd_map_rule, "buffer_callback": _buffer_callback_rule}


def _cpu_lowerings() -> None:
    """Primitives JAX lowers only for cpu/gpu (the LAPACK-backed linalg ops
    and others with a cpu-specific rule) get the cpu rule for cxla too: cxla
    runs the same custom calls XLA:CPU does."""
    from jax._src.interpreters import mlir

    table = mlir._platform_specific_lowerings
    if not isinstance(table.get(PLATFORM), _WithCpuRules):
        table[PLATFORM] = _WithCpuRules(table.get(PLATFORM, {}), table["cpu"])


def _cpu_branches_for_cxla() -> None:
    """lax.platform_dependent(x, cpu=f, default=g) runs f on cxla, as on
    XLA:CPU: the branch lists that its platform_index and the cond it
    builds carry get cxla wherever they name cpu (without this, cxla took
    the default branch, or failed a lowering without one)."""
    from jax._src.interpreters import mlir
    from jax._src.lax.control_flow import conditionals as cond

    def with_cxla(branches_platforms):
        return tuple(ps if ps is None or "cpu" not in ps or PLATFORM in ps else tuple(ps) + (PLATFORM,)
                     for ps in branches_platforms)

    index_rule, cond_rule = cond._platform_index_lowering, cond._cond_lowering

    def platform_index_lowering(ctx, *, platforms):
        return index_rule(ctx, platforms=with_cxla(platforms))

    def cond_lowering(ctx, index, *args, branches, **params):
        if params.get("branches_platforms") is not None:
            params = dict(params, branches_platforms=with_cxla(params["branches_platforms"]))
        return cond_rule(ctx, index, *args, branches=branches, **params)

    mlir.register_lowering(cond.platform_index_p, platform_index_lowering)
    mlir.register_lowering(cond.cond_p, cond_lowering)


def _enable_donation() -> None:
    """cxla honours input_output_alias (the plugin deletes a donated
    argument's buffer), so JAX may emit donation for it."""
    from jax._src.interpreters import mlir

    if PLATFORM not in mlir._platforms_with_donation:
        mlir._platforms_with_donation.append(PLATFORM)


def _export_as_cpu() -> None:
    """jax.export treats cxla as the CPU it is: exporting with cxla the
    default backend makes a 'cpu' artifact (lowered by the cpu rules, which
    cxla runs; XLA:CPU can run it too), and an artifact exported for 'cpu'
    runs on cxla, taking the cpu branch of a multi-platform export."""
    from jax._src.export import _export
    from jax._src.interpreters import mlir
    import jax.export as public

    default = _export.default_export_platform

    def default_export_platform() -> str:
        p = default()
        return "cpu" if p == PLATFORM else p

    default_export_platform.__doc__ = default.__doc__
    _export.default_export_platform = default_export_platform
    _export.default_lowering_platform = default_export_platform
    public.default_export_platform = default_export_platform

    rule = _export._call_exported_lowering

    def call_exported_lowering(ctx, *args, exported, **params):
        ps = exported.platforms
        if PLATFORM not in ps and "cpu" in ps:
            exported = dataclasses.replace(
                exported, platforms=tuple(PLATFORM if p == "cpu" else p for p in ps))
        return rule(ctx, *args, exported=exported, **params)

    mlir.register_lowering(_export.call_exported_p, call_exported_lowering, platform=PLATFORM)

# ---- host callbacks --------------------------------------------------------
# jax.debug.print, jax.pure_callback and io_callback lower (on cxla) to a
# custom-call "cxla_host_callback" whose id indexes _callbacks; the plugin
# calls _trampoline (its address is the client option "host_callback") with
# the id, the array operands' data and the array results' memory. Ids are
# never reused: an executable may outlive the lowering that made it.
_callbacks = []
_callbacks_lock = threading.Lock()

_CallbackType = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int,
                                 ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                                 ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_size_t)


def _nbytes(aval) -> int:
    import numpy as np

    return int(np.prod(aval.shape, dtype=np.int64)) * np.dtype(aval.dtype).itemsize


def _view_at(address, aval):
    """A NumPy view of aval's bytes at address (an empty array: zeros)."""
    import numpy as np

    dtype = np.dtype(aval.dtype)
    n = _nbytes(aval)
    if n == 0:
        return np.zeros(aval.shape, dtype)
    raw = (ctypes.c_char * n).from_address(address)
    return np.frombuffer(raw, dtype=dtype).reshape(aval.shape)


def _array_at(address, aval):
    return _view_at(address, aval).copy()


def _trampoline(_arg, cid, nargs, args, nresults, results, error, error_size):
    try:
        import numpy as np

        fn, in_avals, out_avals = _callbacks[cid]
        if nargs != len(in_avals) or nresults != len(out_avals):
            raise RuntimeError(f"host callback {cid}: called with {nargs} arguments and {nresults} "
                               f"results, made for {len(in_avals)} and {len(out_avals)}")
        if isinstance(fn, _RawCallback):
            fn([args[i] for i in range(nargs)], [results[i] for i in range(nresults)])
            return 0
        outs = fn(*[_array_at(args[i], a) for i, a in enumerate(in_avals)])
        for i, (o, aval) in enumerate(zip(outs, out_avals)):
            o = np.ascontiguousarray(o)
            if o.nbytes:
                ctypes.memmove(results[i], o.ctypes.data, o.nbytes)
        return 0
    except BaseException as e:  # noqa: BLE001 (reported as the execution's error)
        msg = f"{type(e).__name__}: {e}".encode("utf-8", "replace")[:max(int(error_size) - 1, 0)]
        if error_size:
            ctypes.memmove(error, msg + b"\0", len(msg) + 1)
        return 1


_trampoline_c = _CallbackType(_trampoline)


class _RawCallback:
    """A host callback that takes the operands' and results' addresses
    itself (buffer_callback): fn(args, results), two lists of ints."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, args, results):
        self.fn(args, results)


def _register_callback(fn, in_avals, out_avals) -> int:
    with _callbacks_lock:
        _callbacks.append((fn, tuple(in_avals), tuple(out_avals)))
        return len(_callbacks) - 1


# ---- buffer_callback ---------------------------------------------------------
# jax.experimental.buffer_callback hands its callback the operands and
# results as buffers in device memory, the results to be written in place
# (XLA's FFI "xla_buffer_python_cpu_callback"). On cxla it is a
# cxla_host_callback whose Python side wraps the addresses in _Buffer
# objects: NumPy views of the memory (read-only for operands), with the
# attributes and protocols (__array__, DLPack) of jaxlib's Buffer. An
# operand aliased to a result (input_output_aliases) is copied into the
# result's memory first, and both buffers view that memory, as they share
# one buffer on XLA.

class _Buffer:
    def __init__(self, address, aval, writeable):
        self._a = _view_at(address, aval)
        self._a.flags.writeable = bool(writeable) and _nbytes(aval) > 0
        self.writeable = bool(writeable)

    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)

    def __array__(self, dtype=None, copy=None):
        import numpy as np

        if copy:
            return np.array(self._a, dtype=dtype, copy=True)
        return self._a if dtype is None else self._a.astype(dtype, copy=False)

    def __dlpack__(self, *args, **kwargs):
        return self._a.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class _ExecutionContext:
    @property
    def stage(self):
        from jax.experimental.buffer_callback import ExecutionStage
        return ExecutionStage.EXECUTE

    @property
    def stream(self):
        import jax
        raise jax.errors.JaxRuntimeError("INVALID_ARGUMENT: XLA FFI GPU context is not available "
                                         "(cxla runs callbacks on the host)")


def _buffer_callback_lowering(ctx, *args, callback, in_tree, out_tree, has_side_effect,
                              input_output_aliases, command_buffer_compatible, **_):
    import numpy as np
    from jax._src import ffi, tree_util

    del command_buffer_compatible  # a GPU notion
    platforms = ctx.module_context.platforms
    if len(platforms) > 1:
        raise NotImplementedError("multi-platform lowering for buffer_callback")
    in_avals, out_avals = list(ctx.avals_in), list(ctx.avals_out)
    alias = dict(input_output_aliases)  # operand -> result

    def raw(arg_addrs, res_addrs):
        for i, o in alias.items():
            if _nbytes(in_avals[i]):
                ctypes.memmove(res_addrs[o], arg_addrs[i], _nbytes(in_avals[i]))
        ins = [_Buffer(res_addrs[alias[i]] if i in alias else a, in_avals[i], False)
               for i, a in enumerate(arg_addrs)]
        outs = [_Buffer(a, out_avals[k], True) for k, a in enumerate(res_addrs)]
        py_args, py_kwargs = tree_util.tree_unflatten(in_tree, ins)
        py_outs = tree_util.tree_unflatten(out_tree, outs)
        if callback(_ExecutionContext(), py_outs, *py_args, **py_kwargs) is not None:
            raise ValueError("buffer_callback callback must not return any values.")

    cid = _register_callback(_RawCallback(raw), in_avals, out_avals)
    # JAX keeps it alive, and never caches the module on disk (the id names
    # a callable of this process only)
    ctx.module_context.add_host_callback(raw)
    rule = ffi.ffi_lowering("cxla_host_callback", has_side_effect=has_side_effect)
    return rule(ctx, *args, id=np.uint64(cid))


def _host_callbacks() -> None:
    """Lowers JAX's host callbacks for cxla to custom-calls
    "cxla_host_callback" (JAX's own lowering knows only XLA's platforms)."""
    import numpy as np
    from jax._src import callback as cb
    from jax._src import core, dtypes, ffi, sharding_impls
    from jax._src.interpreters import mlir

    emit = cb.emit_python_callback

    def emit_python_callback(ctx, callback, token, operands, operand_avals, result_avals, *,
                             has_side_effect, returns_token=True, partitioned=False, sharding=None):
        platforms = ctx.module_context.platforms
        if PLATFORM not in platforms:
            return emit(ctx, callback, token, operands, operand_avals, result_avals,
                        has_side_effect=has_side_effect, returns_token=returns_token,
                        partitioned=partitioned, sharding=sharding)
        if len(platforms) > 1:
            raise NotImplementedError("multi-platform lowering for python_callback")

        def checked(*args):  # the checks JAX's own lowering wraps a callback in
            out_vals = callback(*args)
            if len(out_vals) != len(result_avals):
                raise RuntimeError("Mismatched number of outputs from callback. "
                                   f"Expected: {len(result_avals)}, Actual: {len(out_vals)}")
            out_vals = tuple(dtypes.canonicalize_value(np.asarray(a)) for a in out_vals)
            for i, (v, aval) in enumerate(zip(out_vals, result_avals)):
                if v.shape != aval.shape:
                    raise RuntimeError(f"Incorrect output shape for return value #{i}: "
                                       f"Expected: {aval.shape}, Actual: {v.shape}")
                if v.dtype != aval.dtype:
                    raise RuntimeError(f"Incorrect output dtype for return value #{i}: "
                                       f"Expected: {aval.dtype}, Actual: {v.dtype}")
            return out_vals

        cid = _register_callback(checked, operand_avals, result_avals)
        # JAX keeps it alive, and never caches the module on disk (the id
        # names a callable of this process only)
        ctx.module_context.add_host_callback(checked)
        operands = list(operands)
        if token:
            if (sharding is not None and len(ctx.avals_out) > 0
                    and isinstance(sharding, sharding_impls.SdyArrayList)):
                # the token's annotation, as JAX's own lowering adds it
                sharding = sharding_impls.SdyArrayList((
                    sharding_impls.SdyArray(
                        mesh_shape=(), dim_shardings=(),
                        logical_device_ids=sharding.shardings[0].logical_device_ids),
                    *sharding.shardings))
            operands = [token, *operands]
            ctx = dataclasses.replace(ctx, avals_in=[core.abstract_token, *ctx.avals_in],
                                      avals_out=[core.abstract_token, *ctx.avals_out])
        op = ffi.build_ffi_lowering_function("cxla_host_callback", has_side_effect=has_side_effect)(
            ctx, *operands, id=np.uint64(cid))
        if sharding is not None:
            mlir.set_sharding(ctx.module_context, op, sharding)
        results = list(op.results)
        if token:
            token, *results = results
        return results, token, None

    cb.emit_python_callback = emit_python_callback
    import jax.interpreters.mlir as public_mlir  # re-exports it (jax.experimental.sparse uses that)

    if getattr(public_mlir, "emit_python_callback", None) is emit:
        public_mlir.emit_python_callback = emit_python_callback


def _dlpack() -> None:
    """DLPack with cxla as the CPU it is: jaxlib exchanges DLPack tensors
    with XLA's own CPU and GPU clients only. A cxla array exports a
    NumPy view of its buffer (kDLCPU, read-only; the view holds an external
    reference, so the memory outlives a delete()), and a CPU tensor
    imported while cxla is the default backend (or onto a cxla device)
    lands on cxla, copied in, where XLA:CPU would have taken it."""
    import numpy as np
    from jax._src import array
    from jax._src import dlpack as dl
    from jax._src import xla_bridge
    import jax.dlpack as public_dlpack

    impl = array.ArrayImpl
    export, export_device, import_ = impl.__dlpack__, impl.__dlpack_device__, dl.from_dlpack

    def on_cxla(x):
        return len(x._arrays) == 1 and x.platform() == PLATFORM

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if not on_cxla(self):
            return export(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)
        return np.asarray(self).__dlpack__(max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        if not on_cxla(self):
            return export_device(self)
        return dl.DLDeviceType.kDLCPU, 0

    def from_dlpack(external_array, device=None, copy=None):
        from jax.sharding import Sharding

        target = device
        if isinstance(device, Sharding) and len(device.device_set) == 1:
            target = next(iter(device.device_set))
        cpu_tensor = (hasattr(external_array, "__dlpack_device__")
                      and external_array.__dlpack_device__()[0] == dl.DLDeviceType.kDLCPU)
        to_cxla = (target.platform == PLATFORM if target is not None and hasattr(target, "platform")
                   else xla_bridge.default_backend() == PLATFORM)
        if not (cpu_tensor and to_cxla):
            return import_(external_array, device=device, copy=copy)
        if copy is False:
            raise ValueError("from_dlpack onto cxla copies the tensor in; copy=False asks not to")
        import jax
        host = np.from_dlpack(external_array)
        return jax.device_put(host, target if target is not None else jax.devices(PLATFORM)[0])

    impl.__dlpack__ = __dlpack__
    impl.__dlpack_device__ = __dlpack_device__
    dl.from_dlpack = from_dlpack
    public_dlpack.from_dlpack = from_dlpack


def _persistent_cache() -> None:
    """JAX's persistent compilation cache for cxla too: JAX keeps a fixed
    list of platforms that may use it; cxla serializes its executables
    (PJRT_Executable_Serialize: the optimized module, which loading
    compiles without the optimizer), so it is asked as cpu would be."""
    from jax._src import compilation_cache as cc

    used = cc.is_cache_used

    class _AsCpu:
        platform = "cpu"
        supports_executable_serialization = True

    def is_cache_used(backend):
        return used(_AsCpu() if getattr(backend, "platform", None) == PLATFORM else backend)

    cc.is_cache_used = is_cache_used


def _cpu_devices_for_callbacks() -> None:
    """Host callbacks (pure_callback, io_callback, debug.callback) hand
    their Python function JAX arrays on a CPU device, and fail without
    one ("failed to find a local CPU device") when JAX_PLATFORMS names
    cxla alone. There cxla's device serves: asked for the local devices
    of a cpu backend that is not there, JAX gets cxla's."""
    from jax._src import xla_bridge

    local_devices = xla_bridge.local_devices

    def local_devices_or_cxla(process_index=None, backend=None, host_id=None):
        try:
            return local_devices(process_index, backend, host_id)
        except RuntimeError:
            if backend != "cpu" or PLATFORM not in xla_bridge.backends():
                raise
            return local_devices(process_index, PLATFORM, host_id)

    xla_bridge.local_devices = local_devices_or_cxla


def initialize() -> None:
    from jax._src import xla_bridge

    path = library_path()
    if not os.path.exists(path):
        raise RuntimeError(f"jax-cxla: the PJRT plugin library {path} is missing")
    address = ctypes.cast(_trampoline_c, ctypes.c_void_p).value
    xla_bridge.register_plugin(PLATFORM, priority=400, library_path=path,
                               options={"host_callback": address})
    _cpu_lowerings()
    _cpu_branches_for_cxla()
    _enable_donation()
    _export_as_cpu()
    _host_callbacks()
    _dlpack()
    _persistent_cache()
    _cpu_devices_for_callbacks()
