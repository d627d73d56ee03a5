"""The pytest plugins of a configuration and the run of a plain test.

Owns RUN_FREE_HOOKS (pytest's hooks that no test's run calls),
IDLE_WHEN (the plugins whose hooks of a test's run act only on the tests
that ask for them, and when a test is left alone) and the plugins of the
server's configuration that implement hooks of a test's run (run_plugins,
computed once); acting says which of them act on a given item, which
real_pytest.plain reads: a plain test is called directly, as pytest's
runner would call it with those plugins.
"""
import os


def acting(item, config, own):
    """The plugins of config (their names, as -p no:NAME names them) that
    would act on item's run: of those that implement hooks of a test's
    run (run_plugins; own: the harness's plugins' classes), each one
    IDLE_WHEN does not know, or whose test there says it acts on this
    item (a mark it reads, an option that applies it to every test).
    Empty when the item runs as a direct call runs it as far as the
    plugins go."""
    found = []
    for name, module, hooks in run_plugins(config, own) or ():
        idle = IDLE_WHEN.get(module)
        try:
            if idle is None or not hooks <= idle[0] or not idle[1](item):
                found.append(name)
        except BaseException:
            found.append(name)
    return found


# The hooks pytest calls while it configures, collects and reports, none
# while it runs a collected item (runtestprotocol): a plugin that
# implements only these cannot make a plain test's verdict differ from a
# direct call's. Collection's hooks ran before plain() reads an item.
# pytest never calls a hook a plugin specifies itself (xdist's
# pytest_xdist_auto_num_workers, pytest-timeout's
# pytest_timeout_set_timer): only its plugin does, from one of pytest's.
RUN_FREE_HOOKS = frozenset((
    "pytest_addhooks", "pytest_addoption", "pytest_configure", "pytest_unconfigure", "pytest_plugin_registered",
    "pytest_cmdline_parse", "pytest_cmdline_preparse", "pytest_cmdline_main", "pytest_load_initial_conftests",
    "pytest_sessionstart", "pytest_sessionfinish", "pytest_collection", "pytest_collection_modifyitems",
    "pytest_collection_finish", "pytest_ignore_collect", "pytest_collect_file", "pytest_collect_directory",
    "pytest_pycollect_makemodule", "pytest_pycollect_makeitem", "pytest_generate_tests",
    "pytest_make_parametrize_id", "pytest_collectstart", "pytest_itemcollected", "pytest_collectreport",
    "pytest_deselected", "pytest_make_collect_report", "pytest_report_header", "pytest_report_collectionfinish",
    "pytest_terminal_summary",
))


def _flaky_idle(item):
    """flaky reruns a test marked flaky, decorated @flaky (attributes
    _flaky_* on the function, its class or module) or, with
    --force-flaky, every test; any other passes through its protocol
    once, as pytest's own runner runs it."""
    from flaky.names import FlakyNames

    if getattr(item.config.option, "force_flaky", True) or item.get_closest_marker("flaky") is not None:
        return False
    names = tuple(FlakyNames())
    owners = (item, item.obj, getattr(item.parent, "obj", None), getattr(item, "instance", None))
    return not any(hasattr(o, n) for o in owners if o is not None for n in names)


# What makes hypothesis's pytest_runtest_call act on a test: @given, or
# a decorator of it without @given (an error it raises).
HYPOTHESIS_ATTRS = ("is_hypothesis_test", "is_hypothesis_strategy_function", "hypothesis_explicit_examples",
                    "_hypothesis_internal_use_seed", "_hypothesis_internal_settings_applied",
                    "_hypothesis_internal_use_reproduce_failure")


def _hypothesis_idle(item):
    """hypothesis's hooks act on a test that @given (or one of its other
    decorators) wraps, and on a report of one; another runs as it is."""
    return not any(getattr(item.obj, n, False) for n in HYPOTHESIS_ATTRS) and not any(
        hasattr(item, n) for n in ("hypothesis_report_information", "hypothesis_statistics"))


def _timeout_idle(item):
    """pytest-timeout sets a timer for a test with a timeout mark, or for
    every test when a timeout is configured (--timeout, PYTEST_TIMEOUT,
    the ini file's timeout); none else."""
    t = getattr(item.config, "_env_timeout", 1)
    return item.get_closest_marker("timeout") is None and (t is None or t <= 0)


def _asyncio_idle(item):
    """pytest-asyncio acts on a test marked asyncio (in auto mode, every
    coroutine is: not plain anyway) and on the event_loop fixture."""
    return item.get_closest_marker("asyncio") is None and "event_loop" not in item.fixturenames


# Plugins that act on a test's run only when it asks for them, by the
# module that registers them: the hooks of a test's run they implement
# (read from their code: flaky 3.7, hypothesis 6.67, pytest-timeout 2.1,
# pytest-asyncio 0.20; a version that implements another acts on every
# test as far as plain knows) and whether a plain item's run is left
# alone, so that a direct call gives its verdict.
IDLE_WHEN = {
    "flaky.flaky_pytest_plugin": (frozenset(("pytest_runtest_protocol", "pytest_runtest_setup")), _flaky_idle),
    "_hypothesis_pytestplugin": (frozenset(("pytest_runtest_call", "pytest_runtest_makereport")), _hypothesis_idle),
    "pytest_timeout": (frozenset(("pytest_runtest_protocol", "pytest_runtest_call", "pytest_exception_interact",
                                  "pytest_enter_pdb")), _timeout_idle),
    "pytest_asyncio.plugin": (frozenset(("pytest_fixture_setup", "pytest_fixture_post_finalizer",
                                         "pytest_pyfunc_call", "pytest_runtest_setup")), _asyncio_idle),
}

_RUN_PLUGINS = []


def run_plugins(config, own):
    """The plugins of config (the server's, whichever asks first) but
    pytest's own and the harness's (own: their classes) that implement
    hooks of a test's run: (name, module, the hooks' names), computed
    once; None without a config or when they cannot be read."""
    if not _RUN_PLUGINS:
        _RUN_PLUGINS.append(_run_plugins(config, own))
    return _RUN_PLUGINS[0]


def _run_plugins(config, own):
    try:
        if config is None:
            return None
        pm = config.pluginmanager
        import types

        found = []
        for plugin in pm.get_plugins():
            if isinstance(plugin, types.ModuleType):
                module = plugin.__name__ or ""
                if os.path.basename(getattr(plugin, "__file__", "") or "") == "conftest.py":
                    continue  # (one with hooks leaves the server without a configuration)
            elif isinstance(plugin, type):
                module = plugin.__module__ or ""
            else:
                module = type(plugin).__module__ or ""
            if module == "pytest" or module.startswith("_pytest.") or type(plugin) in own:
                continue
            hooks = frozenset(h.name for h in pm.get_hookcallers(plugin) or ()
                              if h.name not in RUN_FREE_HOOKS and pytest_spec(h))
            if hooks:
                found.append((pm.get_name(plugin) or module, module, hooks))
        return found
    except BaseException:
        return None


def pytest_spec(caller):
    """Whether a hook is one pytest specifies (and may call), not one a
    plugin added for itself (a hook without a specification counts as
    pytest's)."""
    spec = getattr(caller, "spec", None)
    return spec is None or getattr(spec.namespace, "__name__", "") == "_pytest.hookspec"
