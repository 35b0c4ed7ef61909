package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// initCompletionCommand adds cobra's `completion` command to root now
// (rather than when it runs) and makes an unknown shell a usage error:
// cobra's own command has no action of its own, so `crmem completion tcsh`
// printed the help and exited 0. Its bash script works without the
// bash-completion package (see standaloneBash).
func initCompletionCommand(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.SilenceUsage = true
		c.Annotations = map[string]string{storeRoleKey: string(storeIgnores)} // reads no memory
		c.Args = cobra.ArbitraryArgs                                          // checked below, with the shells named
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return usage(cmd, "unknown shell %q (want %s)", args[0], strings.Join(shellNames(cmd), ", "))
		}
		for _, sh := range c.Commands() {
			if sh.Name() == "bash" {
				initBashCompletion(sh)
			}
		}
	}
}

// shellNames are the shells `completion` writes a script for: its
// subcommands.
func shellNames(completion *cobra.Command) []string {
	var out []string
	for _, c := range completion.Commands() {
		if c.IsAvailableCommand() {
			out = append(out, c.Name())
		}
	}
	return out
}

// initBashCompletion makes `completion bash` write cobra's script made
// standalone (standaloneBash), and its help say how to install it with
// or without the bash-completion package.
func initBashCompletion(bash *cobra.Command) {
	name := bash.Root().Name()
	bash.Long = fmt.Sprintf(`Generate the autocompletion script for the bash shell.

The script works with or without the bash-completion package (Debian's
minimal images, for one, lack it): without it, it completes words and
folders itself.

To load completions in your current shell session:

	source <(%[1]s completion bash)

To load completions for every new session, execute once, either:

#### with the bash-completion package, for yourself (no root needed):

	mkdir -p ~/.local/share/bash-completion/completions
	%[1]s completion bash > ~/.local/share/bash-completion/completions/%[1]s

#### or for every user (Linux; on macOS with Homebrew, $(brew --prefix)/etc/bash_completion.d):

	%[1]s completion bash > /etc/bash_completion.d/%[1]s

#### without the bash-completion package (nothing loads those folders then):

	%[1]s completion bash > ~/.%[1]s-completion.bash
	echo 'source ~/.%[1]s-completion.bash' >> ~/.bashrc

You will need to start a new shell for this setup to take effect.
`, name)
	bash.RunE = func(cmd *cobra.Command, args []string) error {
		noDesc, _ := cmd.Flags().GetBool("no-descriptions")
		var b bytes.Buffer
		if err := cmd.Root().GenBashCompletionV2(&b, !noDesc); err != nil {
			return err
		}
		script, err := standaloneBash(b.String(), cmd.Root().Name())
		if err != nil {
			return err
		}
		_, err = io.WriteString(cmd.OutOrStdout(), script)
		return err
	}
}

// standaloneBash is cobra's bash script (for the program name) made to
// work without the bash-completion package: cobra's script calls that
// package's _get_comp_words_by_ref and _filedir, so on a bash without it
// every TAB printed "_get_comp_words_by_ref: command not found" and
// completed nothing. The script calls them through functions of its own
// that use the package's when it is loaded (when TAB is pressed, so the
// order in which the two are loaded does not matter) and otherwise do
// what the script needs of them: the words as bash-completion gives them
// (a word split at "=" or ":" joined again) and file or folder names.
// The script is unchanged but for those calls; a cobra whose script no
// longer makes them as expected is an error, not a silent half fix.
func standaloneBash(script, name string) (string, error) {
	p := "__" + name // cobra's prefix for the script's functions
	words := "    _get_comp_words_by_ref \"$@\" cur prev words cword\n"
	if strings.Count(script, words) != 1 {
		return "", fmt.Errorf("bash completion: cobra's script no longer calls _get_comp_words_by_ref as expected")
	}
	script = strings.Replace(script, words, "    "+p+"_comp_words_by_ref \"$@\"\n", 1)
	n := strings.Count(script, "_filedir")
	script = strings.ReplaceAll(script, "_filedir", p+"_filedir")
	if n == 0 || strings.Contains(script, p+"_"+p+"_filedir") {
		return "", fmt.Errorf("bash completion: cobra's script no longer calls _filedir as expected")
	}
	header, rest, ok := strings.Cut(script, "\n")
	if !ok {
		return "", fmt.Errorf("bash completion: cobra's script is one line")
	}
	return header + "\n" + strings.ReplaceAll(bashFallbacks, "__PROG", p) + rest, nil
}

// bashFallbacks are the script's stand-ins for bash-completion's
// functions, __PROG standing for the script's prefix. They set the
// caller's cur, prev, words and cword (cobra's __start_ function declares
// them local), and COMPREPLY, as the package's functions do; without the
// package, a word is completed as typed up to its end.
const bashFallbacks = `
# The bash-completion package's _get_comp_words_by_ref when it is loaded,
# else the same from bash's own COMP_WORDS: the words, a word that bash
# split at one of the characters after -n (here = and :) joined again.
__PROG_comp_words_by_ref()
{
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    local __keep=
    if [[ ${1-} == -n ]]; then
        __keep=$2
    fi
    local __line=$COMP_LINE __w __before __i __j=-1
    words=()
    cword=0
    for ((__i = 0; __i < ${#COMP_WORDS[@]}; __i++)); do
        __w=${COMP_WORDS[__i]}
        __before=
        if [[ -n $__w ]]; then
            __before=${__line%%"$__w"*}
            __line=${__line#*"$__w"}
        fi
        if ((__j >= 1)) && [[ -n $__keep && -n $__w && -z $__before ]] &&
            [[ -z ${__w//[$__keep]/} || ${words[__j]} == *[$__keep] ]]; then
            words[__j]+=$__w
        else
            ((__j++))
            words[__j]=$__w
        fi
        if ((__i == COMP_CWORD)); then
            cword=$__j
        fi
    done
    cur=${words[cword]-}
    prev=
    if ((cword > 0)); then
        prev=${words[cword-1]}
    fi
}

# The bash-completion package's _filedir when it is loaded, else the
# names of the files (-d: folders) that start with $cur.
__PROG_filedir()
{
    if declare -F _filedir >/dev/null 2>&1; then
        _filedir "$@"
        return
    fi
    local __f __kind=-f
    if [[ ${1-} == -d ]]; then
        __kind=-d
    fi
    while IFS= read -r __f; do
        COMPREPLY+=("$__f")
    done < <(compgen "$__kind" -- "${cur-}")
    if [[ $(type -t compopt) == builtin ]]; then
        compopt -o filenames 2>/dev/null
    fi
}
`
