# Sourced by ./blocklab and .ci/run: locate a JDK 25 or newer.
# Order: JAVA_HOME, then the system's JVM directory (/usr/lib/jvm), then `java` on PATH.

# Prints the feature version (17, 25, ...) of the given java binary.
blocklab_java_feature() {
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}'
}

# Prints the home of a JDK 25+ (with javac), or explains on stderr what it found and returns 1.
blocklab_find_jdk() {
  local candidates=() seen=() c v
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for c in /usr/lib/jvm/*; do [ -d "$c" ] && candidates+=("$c"); done
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || { seen+=("$c (no JDK)"); continue; }
    v="$(blocklab_java_feature "$c/bin/java")"
    if [ -n "$v" ] && [ "${v%%.*}" -ge 25 ] 2>/dev/null; then echo "$c"; return 0; fi
    seen+=("$c (Java $v)")
  done
  echo "blocklab: needs a JDK 25 or newer; found: ${seen[*]:-nothing}. Install one (e.g. Temurin 25) under /usr/lib/jvm or set JAVA_HOME." >&2
  return 1
}
