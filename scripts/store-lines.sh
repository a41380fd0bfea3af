#!/bin/sh
# Repository lines per backend (issue 22 §1): the files holding the repositories' statements and row
# mappers, before the statement builder (f5507ea^: sqlite/*.ts and postgres/*.ts, one set per backend)
# and at a revision (sql/*.ts, written once, plus each backend's dialect.ts). The backends' plumbing
# (db, gate, checkpointer, signals, url, migrate) and the migrations are left out on both sides.
# Prints lines and code lines (no blank line, no comment-only line).   usage: scripts/store-lines.sh [REV]
rev=${1:-HEAD}
count() { # REV FILE... -> "lines code"
  r=$1; shift
  for f in "$@"; do git show "$r:$f"; done | awk '{ n++ } !/^[ \t]*($|\/\/|\/\*|\*)/ { c++ } END { printf "%5d lines %5d code\n", n, c }'
}
repos='accounts credentials intentions login-attempts terminals webhooks'
for b in sqlite postgres; do
  files=$(for f in $repos bind; do git cat-file -e "f5507ea^:src/server/store/$b/$f.ts" 2>/dev/null && echo "src/server/store/$b/$f.ts"; done)
  echo "before  $b/ $(count f5507ea^ $files)"
done
echo "before  total   $(count f5507ea^ $(for b in sqlite postgres; do for f in $repos bind; do git cat-file -e "f5507ea^:src/server/store/$b/$f.ts" 2>/dev/null && echo "src/server/store/$b/$f.ts"; done; done))"
echo "$rev  sql/    $(count "$rev" $(git ls-tree --name-only "$rev" src/server/store/sql/))"
echo "$rev  sqlite/dialect.ts   $(count "$rev" src/server/store/sqlite/dialect.ts)"
echo "$rev  postgres/dialect.ts $(count "$rev" src/server/store/postgres/dialect.ts)"
echo "$rev  total   $(count "$rev" $(git ls-tree --name-only "$rev" src/server/store/sql/) src/server/store/sqlite/dialect.ts src/server/store/postgres/dialect.ts)"
shared="src/server/store/sql/statement.ts src/server/store/sql/dialect.ts src/server/store/sql/repositories.ts"
echo "of which the builder and the seam (sql/statement.ts, sql/dialect.ts, sql/repositories.ts): $(count "$rev" $shared)"
echo "and the repositories proper (the other sql/*.ts): $(count "$rev" $(git ls-tree --name-only "$rev" src/server/store/sql/ | grep -Ev '/(statement|dialect|repositories)\.ts$'))"
