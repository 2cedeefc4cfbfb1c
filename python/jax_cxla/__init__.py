"""jax-cxla: registers the PJRT plugin for the platform `cxla` with JAX.

JAX finds this module through the `jax_plugins` entry point and calls
initialize(); then JAX_PLATFORMS=cxla (or cxla,cpu) runs programs on cxla.
$CXLA_PJRT_LIBRARY overrides the bundled library's path;
$CXLA_PJRT_BACKEND picks the cxla backend ("cpu", "interp")."""
import dataclasses
import os
import pathlib

PLATFORM = "cxla"


def library_path() -> str:
    env = os.environ.get("CXLA_PJRT_LIBRARY")
    if env:
        return env
    return str(pathlib.Path(__file__).resolve().parent / "libcxla_pjrt.so")


def _copy_cpu_lowerings() -> None:
    """Primitives JAX lowers only for cpu/gpu (the LAPACK-backed linalg ops
    and others with a cpu-specific rule) get the cpu rule for cxla too: cxla
    runs the same custom calls XLA:CPU does."""
    from jax._src.interpreters import mlir

    cpu = mlir._platform_specific_lowerings.get("cpu", {})
    mine = mlir._platform_specific_lowerings[PLATFORM]
    for prim, entry in list(cpu.items()):
        if prim not in mine:
            mine[prim] = entry


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


def initialize() -> None:
    from jax._src import xla_bridge

    path = library_path()
    if not os.path.exists(path):
        raise RuntimeError(f"jax-cxla: the PJRT plugin library {path} is missing")
    xla_bridge.register_plugin(PLATFORM, priority=400, library_path=path)
    _copy_cpu_lowerings()
    _cpu_branches_for_cxla()
    _enable_donation()
    _export_as_cpu()
