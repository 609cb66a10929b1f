# bash completion for mtlbx                                  -*- shell-script -*-
#
# Commands and options are read from the program's own --help (so they
# follow its command table); function names after `dis FILE`, `src FILE`,
# `sig FILE` and `extract FILE -f` from `mtlbx ls --names FILE`. Files offered are
# directories and names that look like metallibs.
# Installed as .../bash-completion/completions/mtlbx, loaded on first use.

# Options that take an argument: the next word is not an operand.
_mtlbx_takes_arg() {
    case $1 in
        --llvm-dis | -o | --output | -f | --function | --os | --slice | --expect | --format) return 0 ;;
    esac
    return 1
}

# Metallibs and directories (to descend into).
_mtlbx_files() {
    local IFS=$'\n'
    COMPREPLY+=($(compgen -f -X '!*.@(metallib|metallibsym|METALLIB)' -- "$1") $(compgen -d -- "$1"))
    compopt -o filenames 2>/dev/null
}

# find, check and diff also read archives and Mach-O hosts (by content;
# these are the usual names).
_mtlbx_releases() {
    local IFS=$'\n'
    COMPREPLY+=($(compgen -f -X '!*.@(metallib|metallibsym|METALLIB|zip|ipa|whl|jar|tar|tgz|gz|xz|zst|bz2|dylib|so)' -- "$1") $(compgen -d -- "$1"))
    compopt -o filenames 2>/dev/null
}

# Function names of FILE starting with PREFIX, one per line.
_mtlbx_functions() {
    local prog=$1 file=$2 prefix=$3 IFS=$'\n'
    [ -r "$file" ] || return
    COMPREPLY+=($(compgen -W "$("$prog" ls --names -- "$file" 2>/dev/null | LC_ALL=C sort -u)" -- "$prefix"))
}

_mtlbx() {
    local prog=${1:-mtlbx} cur=${COMP_WORDS[COMP_CWORD]} prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # `~/x` as typed: expand a leading tilde for the program's path.
    [[ $prog == \~/* ]] && prog=$HOME/${prog#\~/}
    COMPREPLY=()
    shopt -q extglob || { local _noext=1; shopt -s extglob; }

    # The commands, from the program's usage.
    local cmds
    cmds=$("$prog" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')

    # The command and its operands so far, skipping options.
    local cmd= i w dashdash=
    local -a ops=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ -z $dashdash && $w == -- ]]; then
            dashdash=1
        elif [[ -z $dashdash && $w == -?* ]]; then
            _mtlbx_takes_arg "$w" && ((i++))
        elif [[ -z $cmd && -z $dashdash && ${#ops[@]} -eq 0 && $'\n'$cmds$'\n' == *$'\n'$w$'\n'* ]]; then
            cmd=$w
        else
            ops+=("$w")
        fi
    done

    case $prev in
        --llvm-dis)
            COMPREPLY=($(compgen -c -- "$cur") $(compgen -f -- "$cur"))
            ;;
        -o | --output)
            COMPREPLY=($(compgen -d -- "$cur"))
            compopt -o filenames 2>/dev/null
            ;;
        -f | --function)
            _mtlbx_functions "$prog" "${ops[0]}" "$cur"
            ;;
        --os)
            # PLATFORM:VERSION (the version typed by hand), or declared.
            COMPREPLY=($(compgen -W "macos: ios: tvos: maccatalyst: visionos: watchos: declared" -- "$cur"))
            [[ ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2>/dev/null
            ;;
        --format)
            COMPREPLY=($(compgen -W "text json github" -- "$cur"))
            ;;
        --expect)
            COMPREPLY=($(compgen -f -- "$cur"))
            compopt -o filenames 2>/dev/null
            ;;
        --slice)
            ;;
        *)
            if [[ -z $dashdash && $cur == -* ]]; then
                # Every option --help lists for this command (or globally).
                local opts
                opts=$("$prog" $cmd --help 2>/dev/null |
                    sed -n 's/^ \{1,\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p')
                COMPREPLY=($(compgen -W "$opts" -- "$cur"))
            elif [[ -z $cmd && -z $dashdash && ${#ops[@]} -eq 0 ]]; then
                COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
                _mtlbx_files "$cur"
            elif [[ ( $cmd == dis || $cmd == src ) && ${#ops[@]} -eq 1 ]]; then
                _mtlbx_functions "$prog" "${ops[0]}" "$cur"
            elif [[ $cmd == sig && ${#ops[@]} -ge 1 ]]; then
                _mtlbx_functions "$prog" "${ops[0]}" "$cur"
            elif [[ ( $cmd == dis || $cmd == src ) && ${#ops[@]} -ge 2 ]]; then
                :
            elif [[ $cmd == thin && ${#ops[@]} -ge 1 ]]; then
                # The architectures thin keeps (or a slice index, typed).
                COMPREPLY=($(compgen -W "air64 applegpu amdgpu intelgpu" -- "$cur"))
            elif [[ ( $cmd == dump || $cmd == extract || $cmd == sources ) && ${#ops[@]} -ge 1 ]]; then
                :
            elif [[ $cmd == find || $cmd == diff || $cmd == check ]]; then
                _mtlbx_releases "$cur"
            else
                _mtlbx_files "$cur"
            fi
            ;;
    esac
    [ -n "${_noext:-}" ] && shopt -u extglob
    return 0
}
complete -F _mtlbx mtlbx
