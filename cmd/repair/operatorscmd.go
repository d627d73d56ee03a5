package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"repair/mutate"
)

func newOperatorsCmd(io streams) *cobra.Command {
	return &cobra.Command{
		Use:   "operators",
		Short: "List the mutation operators with their default weights",
		Long: withExitCodes("operators lists the mutation operators of the search, with their default\nweights and what each does.",
			exitLine{exitFound, "the list was printed"}),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ops := mutate.Default()
			width := 0
			for _, w := range ops {
				width = max(width, len(w.Op.Name))
			}
			for _, w := range ops {
				title, rest, _ := strings.Cut(w.Op.Doc, "\n")
				fmt.Fprintf(io.Out, "%-*s %4g  %s\n", width, w.Op.Name, w.Weight, title)
				for _, line := range strings.Split(strings.TrimSpace(rest), "\n") {
					if line != "" {
						fmt.Fprintf(io.Out, "%-*s %s\n", width+6, "", line)
					}
				}
			}
			fmt.Fprintln(io.Out, "\nSelect with --operators NAME[=WEIGHT],... (or all); weights are relative.")
			return nil
		},
	}
}
