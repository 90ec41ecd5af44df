# Sourced by the bench scripts (after `cd` to the repository root) for the steps they
# share: a release binary to measure and Debian's stockfish to measure it against.

# Builds the release binary when $crown is not there yet.
need_crown() {
    [ -x "$crown" ] || make --no-print-directory BUILD=release
}

# Installs Debian's stockfish when it is missing; $1 says what the script wants it for.
need_stockfish() {
    [ -x /usr/games/stockfish ] && return
    echo "installing stockfish (Debian package) $1"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get install -y -qq stockfish >/dev/null
}
