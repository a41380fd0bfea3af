#!/bin/sh
# Repository lines per backend (issue 22 §1): the files holding the repositories' statements and row
# mappers, before the statement builder (f5507ea^: sqlite/*.ts and postgres/*.ts, one set per backend,
# and webhook-rows.ts, the outbox's row types and mappers both backends shared; counted since
# 2026-11-29, before which the "before" side left it out) and at a revision (sql/*.ts, written once, plus each backend's dialect.ts). How statements run is
# plumbing and left out on both sides: the backends' connections (db, gate, checkpointer, signals,
# url, migrate), before the builder sqlite/bind.ts (the runner wrapper), after it the Exec (sql/exec.ts,
# sqlite/exec.ts, postgres/exec.ts; in the dialect files until 2026-11-28, so counted there at older
# revisions). The migrations are left out on both sides. webhook-rows.ts is counted on both sides (at
# REV it keeps the endpoint rules, rotatedSecrets and endpointRefusal, that it held before too;
# until 2026-11-29 (later) only the before side counted it, which flattered the after side).
# Prints lines and code lines (no blank line, no comment-only line).   usage: scripts/store-lines.sh [REV]
rev=${1:-HEAD}
count() { # REV FILE... -> "lines code"
  r=$1; shift
  for f in "$@"; do git show "$r:$f"; done | awk '{ n++ } !/^[ \t]*($|\/\/|\/\*|\*)/ { c++ } END { printf "%5d lines %5d code\n", n, c }'
}
repos='accounts credentials intentions login-attempts terminals webhooks'
before() { for b in $1; do for f in $repos; do git cat-file -e "f5507ea^:src/server/store/$b/$f.ts" 2>/dev/null && echo "src/server/store/$b/$f.ts"; done; done; }
for b in sqlite postgres; do echo "before  $b/ $(count f5507ea^ $(before $b))"; done
echo "before  webhook-rows.ts (shared by both) $(count f5507ea^ src/server/store/webhook-rows.ts)"
echo "before  total   $(count f5507ea^ $(before 'sqlite postgres') src/server/store/webhook-rows.ts)"
sqlfiles=$(git ls-tree --name-only "$rev" src/server/store/sql/ | grep -v '/exec\.ts$')
for f in $sqlfiles; do echo "$rev  $(echo "$f" | sed 's#src/server/store/##')  $(count "$rev" "$f")"; done
echo "$rev  sql/    $(count "$rev" $sqlfiles)"
echo "$rev  sqlite/dialect.ts   $(count "$rev" src/server/store/sqlite/dialect.ts)"
echo "$rev  postgres/dialect.ts $(count "$rev" src/server/store/postgres/dialect.ts)"
echo "$rev  webhook-rows.ts     $(count "$rev" src/server/store/webhook-rows.ts)"
echo "$rev  total   $(count "$rev" $sqlfiles src/server/store/sqlite/dialect.ts src/server/store/postgres/dialect.ts src/server/store/webhook-rows.ts)"
shared=$(for f in statement dialect repositories columns; do echo src/server/store/sql/$f.ts; done)
echo "of which the builder and the seam (sql/statement.ts, sql/columns.ts, sql/dialect.ts, sql/repositories.ts): $(count "$rev" $shared)"
echo "and the repositories proper (the other sql/*.ts, and webhook-rows.ts): $(count "$rev" $(echo "$sqlfiles" | grep -Ev '/(statement|columns|dialect|repositories)\.ts$') src/server/store/webhook-rows.ts)"
# Issue 23 (the fleet view) added two files here after issue 22's reshape; without them, nearer like for like.
fleet='src/server/store/sql/terminal-health.ts src/server/store/sql/stuck-jobs.ts'
echo "without issue 23's terminal-health.ts and stuck-jobs.ts: $(count "$rev" $(for f in $sqlfiles src/server/store/sqlite/dialect.ts src/server/store/postgres/dialect.ts src/server/store/webhook-rows.ts; do case " $fleet " in *" $f "*) ;; *) git cat-file -e "$rev:$f" 2>/dev/null && echo "$f";; esac; done))"
