#!/usr/bin/env bash
# Installs the Debian packages crown needs, only those missing.
#   tools/install-deps.sh build   compiler, make and the libraries of the web server and
#                                 the lab: enough to build and play (libmicrohttpd, SQLite,
#                                 jansson, libpq, libcsv, libsodium, libfido2, libcbor, libcurl,
#                                 zstd for the packed solved tables), and gnuplot for crown lab's plots
#   tools/install-deps.sh play    build + npm and the front end's npm packages
#                                 (src/web/vendor: uPlot, the review's graph), which the
#                                 build embeds: what ./play and make play need
#   tools/install-deps.sh web     also Node.js, npm and Chromium, the browser tests'
#                                 npm packages (tests/web: playwright-core, axe-core)
#                                 and the front end's (src/web/vendor: uPlot)
#   tools/install-deps.sh test    build + web + cmocka, clang and its libFuzzer, Python's
#                                 headers, numpy, pytest, pip, venv and build, the sqlite3
#                                 shell, PostgreSQL and HAProxy for the multi-process tests, and
#                                 aiosmtpd (a local SMTP server) for the mail
#                                 tests, for `make test`
#   tools/install-deps.sh deb     build + debhelper and dh-python, lintian, Python's headers and
#                                 debootstrap: `make deb` and `make deb-test`
# With --list after the set it installs nothing and prints what the set holds, one a line:
# Debian packages as they are, npm folders as npm:FOLDER.
set -eu
cd "$(dirname "$0")/.."
set_name=${1:-build}
want=(gcc make libmicrohttpd-dev libsqlite3-dev libjansson-dev libpq-dev libcsv-dev libsodium-dev libfido2-dev libcbor-dev libcurl4-openssl-dev libzstd-dev gnuplot-nox)
web=false vendor=false
case $set_name in
build) ;;
play) vendor=true ;;
web) web=true vendor=true ;;
test) web=true vendor=true; want+=(libcmocka-dev clang libclang-rt-dev python3-dev python3-numpy python3-pytest python3-aiosmtpd sqlite3 postgresql haproxy cppcheck) ;; # libFuzzer: clang only recommends it
deb) want+=(debhelper dh-python dpkg-dev fakeroot lintian pkgconf python3-dev debootstrap) ;;
*) echo "install-deps: unknown set '$set_name' (build, play, web, test, deb)" >&2; exit 2 ;;
esac
# The packaging test installs the Python module with pip into a virtual environment and
# builds its wheel (tests/python/test_packaging.py).
if [ "$set_name" = test ]; then
    want+=(python3-venv python3-pip python3-setuptools python3-build)
fi
if [ "${2:-}" = --list ]; then
    printf '%s\n' "${want[@]}"
    if $web || $vendor; then printf '%s\n' nodejs npm; fi
    if $web; then printf '%s\n' chromium-headless-shell npm:tests/web; fi
    if $vendor; then echo npm:src/web/vendor; fi
    exit 0
fi
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if $web || $vendor; then
    # Node.js may come from elsewhere than Debian (NodeSource's nodejs carries npm): ask
    # for the commands, not the packages.
    command -v node >/dev/null || missing+=(nodejs)
    command -v npm >/dev/null || missing+=(npm)
fi
if $web; then
    # The browser tests drive Chromium's headless shell: half the processor time of the
    # full browser in headless mode for a page opened (measured: 1.8 s against 4.0 s).
    [ -x /usr/bin/chromium-headless-shell ] || [ -n "${CHROMIUM_BIN:-}" ] || missing+=(chromium-headless-shell)
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
fi
if $vendor; then
    # The front end's libraries (src/web/vendor: uPlot for the review graph), embedded
    # into the program by the next build.
    lock=src/web/vendor/package-lock.json
    stamp=src/web/vendor/node_modules/.crown-installed
    if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
        echo "installing npm packages for the web front end (src/web/vendor)"
        # Without it the app still works, but its reviews have no graph: say so.
        (cd src/web/vendor && npm ci --no-audit --no-fund --loglevel=error) && touch "$stamp" ||
            echo "install-deps: npm could not install src/web/vendor; the review will have no graph" >&2
    fi
fi
