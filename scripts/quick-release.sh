# Sourced by the packaging tests (scripts/test-wheel.sh, test-pre-commit.sh,
# test-crate.sh). They check what a channel ships and how it installs, not the
# speed of the binary, so they build the release profile without its fat LTO,
# single codegen unit and optimisation: minutes less in CI, the same files in
# the package. One target directory for all three, so the dependencies
# compiled for the first are fresh for the next, and apart from target/release,
# whose unhashed library and binary (apcheck is a cdylib too) the benchmarks
# and the web build read.
export CARGO_TARGET_DIR="$repo/target/crate-install"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false
