// Command repair finds and prints a patch that makes a Python program pass
// its tests (docs/design.md).
package main

import "os"

func main() { os.Exit(run(os.Args[1:])) }
