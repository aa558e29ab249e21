# corpus-list.sh — sourced by run-corpus.sh and selfcheck.sh: the list of the cause corpus's programs.
#
# corpus_list OUT PROGRAMS_DIR SOURCE_DIR [REGEX]
#   writes OUT, one program a line: NAME<TAB>SOURCE<TAB>COMMAND (words separated by spaces; the
#   paths must not contain spaces). C programs: every gtk3-*/gtk4-* executable of PROGRAMS_DIR (as
#   built by scripts/build-cause-programs.sh), its source NAME_WITH_UNDERSCORES.c or
#   gtkN_NAME.c in SOURCE_DIR. Python (py_*.py, run by /usr/bin/python3) and GJS (gjs_*.js, run by
#   gjs) programs: twice each, CAUSE_GTK=3 and CAUSE_GTK=4, named py-gtk3-NAME, gjs-gtk4-NAME...
#   REGEX (awk extended regular expression) keeps only the names it matches.
corpus_list() {
  local out=$1 programs=$2 src=$3 only=${4:-} bin name base file lang rest v cmd
  : >"$out.all"
  for bin in "$programs"/gtk[34]-*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    case "$name" in *.tmp) continue ;; esac
    base=${name#gtk?-}
    file=$src/${base//-/_}.c
    [ -f "$file" ] || file=$src/${name:0:4}_${base//-/_}.c
    [ -f "$file" ] || { echo "corpus: no source for $name in $src; skipped" >&2; continue; }
    printf '%s\t%s\t%s\n' "$name" "$file" "$bin" >>"$out.all"
  done
  for file in "$src"/py_*.py "$src"/gjs_*.js; do
    [ -f "$file" ] || continue
    base=$(basename "$file")
    base=${base%.*}
    lang=${base%%_*}
    rest=${base#*_}
    for v in 3 4; do
      if [ "$lang" = py ]; then cmd="env CAUSE_GTK=$v /usr/bin/python3 $file"; else cmd="env CAUSE_GTK=$v gjs $file"; fi
      printf '%s\t%s\t%s\n' "$lang-gtk$v-${rest//_/-}" "$file" "$cmd" >>"$out.all"
    done
  done
  awk -F'\t' -v re="$only" 're == "" || $1 ~ re' "$out.all" >"$out"
  rm -f "$out.all"
}
