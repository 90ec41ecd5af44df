#!/usr/bin/env bash
# Installs the Debian packages crown needs, only those missing.
#   tools/install-deps.sh build   compiler, make and the libraries of the web server and
#                                 the lab: enough to build and play (libmicrohttpd, SQLite,
#                                 jansson, libpq, libcsv), and gnuplot for crown lab's plots
#   tools/install-deps.sh web     also Node.js, npm and Chromium, the browser tests'
#                                 npm packages (tests/web: playwright-core, axe-core)
#                                 and the front end's (src/web/vendor: uPlot)
#   tools/install-deps.sh test    build + web + cmocka, clang and its libFuzzer, Python's
#                                 headers, numpy and pytest, the sqlite3 shell, and
#                                 PostgreSQL and HAProxy for the multi-process tests, for
#                                 `make test`
set -eu
cd "$(dirname "$0")/.."
set_name=${1:-build}
want=(gcc make libmicrohttpd-dev libsqlite3-dev libjansson-dev libpq-dev libcsv-dev gnuplot-nox)
web=false
case $set_name in
build) ;;
web) web=true ;;
test) web=true; want+=(libcmocka-dev clang libclang-rt-dev python3-dev python3-numpy python3-pytest sqlite3 postgresql haproxy cppcheck) ;; # libFuzzer: clang only recommends it
*) echo "install-deps: unknown set '$set_name' (build, web, test)" >&2; exit 2 ;;
esac
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if $web; then
    # Node.js may come from elsewhere than Debian (NodeSource's nodejs carries npm): ask
    # for the commands, not the packages.
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
    [ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_BIN:-}" ] || missing+=(chromium)
fi
if [ ${#missing[@]} -ne 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if $web; then
    # The exact versions of tests/web/package-lock.json, once (again when the lock changes).
    lock=tests/web/package-lock.json
    stamp=tests/web/node_modules/.crown-installed
    if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
        echo "installing npm packages for the browser tests (tests/web)"
        (cd tests/web && npm ci --no-audit --no-fund --loglevel=error) && touch "$stamp"
    fi
    # The front end's libraries (src/web/vendor: uPlot for the review graph), embedded
    # into the program by the next build.
    lock=src/web/vendor/package-lock.json
    stamp=src/web/vendor/node_modules/.crown-installed
    if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
        echo "installing npm packages for the web front end (src/web/vendor)"
        (cd src/web/vendor && npm ci --no-audit --no-fund --loglevel=error) && touch "$stamp"
    fi
fi
