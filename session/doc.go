// Package session opens what a repair needs from one configuration
// (Config): the target and its suite (Load), the main engine, the
// overfitting guard's engine (started in the background while the main
// one starts), the engine of the check of delivered fixes, the parity
// check with plain pytest, and the workers (0 is one per CPU, resolved
// here once). Session.Hooks fills what repair.Run takes of them
// (repair.Options' Guard, GuardProbes, Verify, CheckOriginal, Workers and
// Grow); Session.Close closes them all.
//
// Every entry point opens its engines here: the repair command and its
// run and localize subcommands, a class's batch, an experiment's trials
// (NewShared: one guard and one check for all the trials of a bug) and
// the service. Repair is the repair command's whole run; the report of
// a run (--report) and the progress on stderr live here too.
package session
