/// The bash, zsh and fish scripts of `peershare completion`: the command table's lookups
/// (`Completion`) in each shell's syntax, and a fixed driver per shell.
///
/// Every driver does the same: walk the words typed before the cursor (command words
/// extend the command path, an option that takes a value skips that value, anything else
/// is a positional argument), then offer the value of the option just typed, or options
/// after a `-`, or the next command word, or what the next argument takes.
enum CompletionScripts {
    static func bash(_ completion: Completion) -> String {
        """
        # bash completion for peershare, written by 'peershare completion bash' from its command table.
        # Load it with: source <(peershare completion bash)
        # or save it as ~/.local/share/bash-completion/completions/peershare

        \(shLookups(completion))

        \(bashDriver)
        complete -F _peershare peershare
        """
    }

    static func zsh(_ completion: Completion) -> String {
        """
        #compdef peershare
        # zsh completion for peershare, written by 'peershare completion zsh' from its command table.
        # Save it as _peershare in a directory of $fpath before compinit runs, e.g.
        # ~/.local/share/zsh/site-functions/_peershare with fpath+=(~/.local/share/zsh/site-functions)
        # in ~/.zshrc; or load it after compinit with: source <(peershare completion zsh)

        \(shLookups(completion))

        \(zshDriver)
        if [[ $funcstack[1] == _peershare ]]; then _peershare "$@"; else compdef _peershare peershare; fi
        """
    }

    static func fish(_ completion: Completion) -> String {
        """
        # fish completion for peershare, written by 'peershare completion fish' from its command table.
        # Save it as ~/.config/fish/completions/peershare.fish
        # or load it with: peershare completion fish | source

        \(fishLookups(completion))

        \(fishDriver)
        complete -c peershare -f -a '(__peershare_complete)'
        """
    }

    // MARK: - Lookups

    /// The four lookups as POSIX `case` functions, which bash and zsh both read.
    private static func shLookups(_ completion: Completion) -> String {
        [
            shFunction(
                "_peershare_words", "$1", completion.words, about: "the command words after a command path"),
            shFunction("_peershare_options", "$1", completion.options, about: "the options of a command"),
            shFunction(
                "_peershare_value", "$1 $2", completion.values,
                about: "how an option's value completes (nothing: the option is a flag)"),
            shFunction(
                "_peershare_argument", "$1 $2", completion.arguments,
                about: "how a command's Nth argument (from 0) completes"),
        ].joined(separator: "\n\n")
    }

    private static func shFunction(_ name: String, _ subject: String, _ rows: [Completion.Row], about: String)
        -> String
    {
        var lines = ["# \(about)", "\(name)() {", "    case \"\(subject)\" in"]
        lines += rows.map { "        \(pattern($0.pattern))) echo '\($0.answer)' ;;" }
        lines += ["    esac", "}"]
        return lines.joined(separator: "\n")
    }

    /// The same lookups as fish functions.
    private static func fishLookups(_ completion: Completion) -> String {
        [
            fishFunction("__peershare_words", "$argv[1]", completion.words),
            fishFunction("__peershare_options", "$argv[1]", completion.options),
            fishFunction("__peershare_value", "$argv[1] $argv[2]", completion.values),
            fishFunction("__peershare_argument", "$argv[1] $argv[2]", completion.arguments),
        ].joined(separator: "\n\n")
    }

    private static func fishFunction(_ name: String, _ subject: String, _ rows: [Completion.Row]) -> String {
        var lines = ["function \(name)", "    switch \"\(subject)\""]
        for row in rows {
            // fish's `case` reads wildcards inside quotes (unquoted, they would glob files).
            lines += ["        case '\(row.pattern)'", "            echo '\(row.answer)'"]
        }
        lines += ["    end", "end"]
        return lines.joined(separator: "\n")
    }

    /// A row pattern as a shell pattern: its literal parts single-quoted, `*` left bare.
    /// Command words and option names hold no quote, so single quotes need no escaping.
    private static func pattern(_ text: String) -> String {
        guard !text.isEmpty else { return "''" }
        return text.split(separator: "*", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : "'\($0)'"
        }.joined(separator: "*")
    }

    // MARK: - Drivers

    private static let bashDriver = #"""
        _peershare() {
            local cur="${COMP_WORDS[COMP_CWORD]}" cmd="" word kind i
            local -a given=()
            for ((i = 1; i < COMP_CWORD; i++)); do
                word="${COMP_WORDS[i]}"
                if [[ $word == -* ]]; then
                    # --opt VALUE skips VALUE; bash splits --opt=VALUE into --opt, =, VALUE.
                    if [[ -n $(_peershare_value "$cmd" "$word") && ${COMP_WORDS[i+1]} != = ]]; then ((i++)); fi
                    continue
                fi
                if [[ $word == = ]]; then ((i++)); continue; fi
                if ((${#given[@]} == 0)) && [[ " $(_peershare_words "$cmd") " == *" $word "* ]]; then
                    cmd="${cmd:+$cmd }$word"
                else
                    given+=("$word")
                fi
            done
            word="${COMP_WORDS[COMP_CWORD-1]}"
            if [[ $word == = && COMP_CWORD -gt 1 ]]; then word="${COMP_WORDS[COMP_CWORD-2]}"; fi
            kind=""
            if [[ $word == -* ]]; then kind=$(_peershare_value "$cmd" "$word"); fi
            if [[ -z $kind ]]; then
                if [[ $cur == -* ]]; then
                    kind="words $(_peershare_options "$cmd")"
                elif ((${#given[@]} == 0)) && [[ -n $(_peershare_words "$cmd") ]]; then
                    kind="words $(_peershare_words "$cmd")"
                else
                    kind=$(_peershare_argument "$cmd" "${#given[@]}")
                fi
            fi
            COMPREPLY=()
            case "$kind" in
                file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
                directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
                command) mapfile -t COMPREPLY < <(compgen -W "$(_peershare_words "${given[*]}")" -- "$cur") ;;
                "words "*) mapfile -t COMPREPLY < <(compgen -W "${kind#words }" -- "$cur") ;;
            esac
        }
        """#

    private static let zshDriver = #"""
        _peershare() {
            local cmd="" word kind list i
            local -a given
            given=()
            for ((i = 2; i < CURRENT; i++)); do
                word=${words[i]}
                if [[ $word == -* ]]; then
                    if [[ $word != *=* && -n $(_peershare_value "$cmd" "$word") ]]; then ((i++)); fi
                    continue
                fi
                if ((${#given} == 0)) && [[ " $(_peershare_words "$cmd") " == *" $word "* ]]; then
                    cmd="${cmd:+$cmd }$word"
                else
                    given+=("$word")
                fi
            done
            word=${words[CURRENT-1]}
            kind=""
            if [[ $word == -* && $word != *=* ]]; then kind=$(_peershare_value "$cmd" "$word"); fi
            if [[ -z $kind ]]; then
                if [[ ${words[CURRENT]} == -* ]]; then
                    kind="words $(_peershare_options "$cmd")"
                elif ((${#given} == 0)) && [[ -n $(_peershare_words "$cmd") ]]; then
                    kind="words $(_peershare_words "$cmd")"
                else
                    kind=$(_peershare_argument "$cmd" ${#given})
                fi
            fi
            case $kind in
                file) _files ;;
                directory) _files -/ ;;
                command) list=$(_peershare_words "${given[*]}"); compadd -- ${=list} ;;
                "words "*) list=${kind#words }; compadd -- ${=list} ;;
            esac
        }
        """#

    private static let fishDriver = #"""
        function __peershare_complete
            set -l tokens (commandline -opc)
            set -l cur (commandline -ct)
            set -l cmd ''
            set -l given
            set -l i 2
            while test $i -le (count $tokens)
                set -l word $tokens[$i]
                set i (math $i + 1)
                if string match -q -- '-*' $word
                    set -l value (__peershare_value "$cmd" $word)
                    if test -n "$value"; and not string match -q -- '*=*' $word
                        set i (math $i + 1)
                    end
                    continue
                end
                set -l subs (string split ' ' -- (__peershare_words "$cmd"))
                if test (count $given) -eq 0; and contains -- $word $subs
                    set cmd (string trim -- "$cmd $word")
                else
                    set -a given $word
                end
            end
            set -l kind ''
            if string match -q -- '-*' $tokens[-1]; and not string match -q -- '*=*' $tokens[-1]
                set kind (__peershare_value "$cmd" $tokens[-1])
            end
            set -l subs (__peershare_words "$cmd")
            if test -z "$kind"
                if string match -q -- '-*' $cur
                    set kind "words "(__peershare_options "$cmd")
                else if test (count $given) -eq 0; and test -n "$subs"
                    set kind "words $subs"
                else
                    set kind (__peershare_argument "$cmd" (count $given))
                end
            end
            switch "$kind"
                case file
                    __fish_complete_path $cur
                case directory
                    __fish_complete_directories $cur
                case command
                    string split ' ' -- (__peershare_words "$given")
                case 'words *'
                    string split ' ' -- (string replace 'words ' '' -- $kind)
            end
        end
        """#
}
