"""The provider layer: AI CLIs driven as subprocesses, described by adapter YAML files.

Modules, from data to effects:

    spec.py      AdapterSpec (one adapters/*.yaml file) and loading/validation
    request.py   ProviderRequest: what the pipeline asks a provider
    events.py    the events a run yields (TierChosen, TextDelta, Usage, ...)
    routing.py   fast/deep model tier routing
    resolve.py   which provider is active, where its binary is
    argv.py      the pure function from (spec, request) to argv/env/stdin
    environment.py  the child's environment: an allow-list plus what the adapter declares
    lines.py     byte stream -> complete lines (UTF-8 and huge-line safe)
    parsers/     one stream parser per output format
    process.py   the subprocess seam: spawn in a new session, signal the group
    pump.py      the read loop (a thread of its own): pipes in, parser events out, timeouts, stops
    scratch.py   each run's private scratch folder; the ones killed runs left are removed
    classify.py  failures -> typed errors with what to do next
    runner.py    start(spec, request, settings) -> a run to iterate and cancel
    side_call.py a blocking side call to a model, announced as Working / WorkDone events
    offline.py   the built-in provider that answers without any AI CLI
    doctor.py    version and login probes behind `providers list/doctor`
"""
