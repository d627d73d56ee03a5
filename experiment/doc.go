// Package experiment runs parameter sweeps of the repair search over many
// bugs and summarizes them (docs/design.md §10; the user's guide is
// docs/experiments.md).
//
// # Plans
//
// A [Plan] (YAML or JSON, read by [Load]) names bugs (folders holding a
// suite and a target, or explicit suite/target pairs), a grid of search
// parameters, seeds, a per-trial budget and an output directory. Its
// parameters are the repair command's search flags, spelled with '_' for
// '-' ([Params]); [Canonical] checks and normalizes one value as the flag
// would read it, and [Options] builds the [repair.Options] the repair
// command builds from the same flags. A plan that names an unknown
// parameter, a folder without a suite, or a value the flag would refuse is
// refused by Load with a one-line message naming the file and line.
//
// # Trials
//
// A [Trial] is one (bug, configuration, seed). Its ID ([TrialID]) is a hash
// of the bug's name, the value of every parameter (set by the plan or not)
// and the seed, so it is the same in every run, shard and version of the
// plan. [InShard] assigns a trial to shard K of N by its ID alone.
//
// # Running
//
// [Run] runs the unfinished trials of a shard: bug after bug, on one
// engine per bug whose worker processes the bug's trials share, and
// appends one [Record] per finished trial to a JSON-lines results file,
// synced line by line. Finished trials (a line in any results file of the
// output directory) are skipped, so running a plan again resumes it. The
// outcome of a trial depends only on its bug, parameters and seed (unless a
// time budget cuts it short), not on the number of workers or the trials
// that ran beside it.
//
// # Reports
//
// [ReadResults] merges results files, de-duplicating trials by ID;
// [NewReport] summarizes them per value of every parameter that varies, per
// bug and per configuration: success rate with its 95% Wilson score
// interval ([Wilson]), medians and interquartile ranges of the time and
// evaluations to the first plausible patch ([Summarize]), and patch sizes.
// [Report.Markdown] and [Report.CSV] print tables and [Report.Plots] draws
// PNG and SVG figures with gonum.org/v1/plot.
package experiment
