// Package serve is `repair serve`: an HTTP service that runs untrusted
// Python programs in the sandbox engines and answers verdicts, with
// ExecEval's API for code-generation benchmarks and a native endpoint
// that the remote engine (package sandbox/remote) uses to spread a
// repair's fitness evaluations over several machines (docs/design.md §12).
//
// # Endpoints
//
//	POST /api/execute_code   ExecEval's JobData → {"data": [ExtendedUnittest...]}
//	GET  /api/all_runtimes   ExecEval's runtime listing ("Python 3" → cpython, "gpython")
//	POST /api/v1/evaluate    remote.EvaluateRequest → remote.EvaluateResponse
//	GET  /healthz            remote.Health (never needs the token)
//	GET  /metrics            Prometheus text format
//
// Every 4xx and 5xx answer is a JSON object {"error": "..."} (plus "code"
// on the native endpoint, see the Code constants of sandbox/remote).
// docs/serve.md documents the shapes, the limits and the metrics.
//
// # Engines and suites
//
// Engines are bound to one suite, so the server keeps a pool of engine
// instances keyed by (runtime, suite ID): an evaluation takes an idle
// instance of its suite or starts one (about 50 ms for cpython), and
// gives it back afterwards. Each instance has one worker, so a suite used
// once costs one process, and a suite used by many concurrent requests
// (pass@k samples of one problem, the candidates of a repair) gets as
// many instances as requests run at once. Idle instances beyond
// [Options.Instances] (least recently used first) and those idle for
// [Options.IdleTimeout] are closed.
//
// # Admission
//
// A request enters the server before its body is read: at most Workers
// evaluate and Queue more wait; beyond that the answer is 503 with
// Retry-After, so an overloaded server neither piles up requests nor
// holds their bodies. Bodies are bounded by [Options.MaxBody]; time and
// memory limits that clients ask for are capped by [Options.MaxTime] and
// [Options.MaxMemoryMB].
package serve
