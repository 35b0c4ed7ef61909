package cli

import (
	"bufio"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crmem/crmem/bm25"
)

// tokensCommand prints the recall tokenizer's output.
func tokensCommand(s streams) *cobra.Command {
	var js jsonOutput
	c := &cobra.Command{
		Use:   "tokens TEXT... [--json|--pretty]",
		Short: "Print the tokens recall sees in TEXT, one per line",
		Long: `Print the tokens of TEXT (the words joined by spaces; "-" reads standard input)
as the recall tokenizer makes them: split on non-alphanumerics, pieces of one
character dropped, lowercased, stopwords removed. --json prints an array.`,
		Example: `  crmem tokens "The Deploy-Steps of ΣΟΦΟΣ"
  crmem show deploy-steps --json | jq -r .content | crmem tokens -`,
		Args: args(1, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text := strings.Join(args, " ")
			if len(args) == 1 && args[0] == "-" {
				t, err := s.content(nil, 0)
				if err != nil {
					return err
				}
				text = t
			}
			toks := bm25.Tokenize(text)
			if toks == nil {
				toks = []string{}
			}
			return s.output(func(w *bufio.Writer) error {
				if js.enabled() {
					return js.write(w, toks)
				}
				for _, t := range toks {
					if _, err := w.WriteString(sanitizeLine(t) + "\n"); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	js.register(c, "print the tokens")
	return c
}
