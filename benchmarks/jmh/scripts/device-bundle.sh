#!/bin/bash
# Packs what a JMH run on a lent machine without a JDK or network needs into .bench/device (git-ignored, so it
# travels only when named): a jlink runtime of this machine's JDK, the launcher's jar without other platforms'
# native libraries, the LDBC sample, PDFBox, the simulator's decompressors and the charts (about 54 MB in all, beside
# the working tree under the 64 MiB a run may carry), and optionally the cache-core, cache-policies and pagecache jars of an earlier commit in
# .bench/device/before/, to put first on the class path for a before/after comparison in one call
# (docs/benchmarks.md, "16 cores, third visit", "fourth visit" and "fifth visit").
#
# Usage: benchmarks/jmh/scripts/device-bundle.sh [--no-peer] [BEFORE_REV]
#   --no-peer  leaves out Neo4j's classes and Eclipse Collections (12 MB less): the runs that compare against
#              Muninn (HitPathBenchmark, FaultPathBenchmark, ...) then fail; ours-only ones (PolicyFaultPathBenchmark,
#              demo) run. With BEFORE_REV the bundle is otherwise a few hundred KB over what a run may carry.
# On the lent machine, from the repository root (the run tool returns only a few files: write one tar):
#   D=.bench/device; J=$D/jre/bin/java; W=/tmp/res; mkdir -p $W; B=$(ls $D/before/*.jar | tr '\n' :)
#   $J -cp $D/ratatosk-bench.jar io.ratatosk.bench.Bench jmh PolicyFaultPathBenchmark --threads 16 ... --out $W/after.json > $W/after.log 2>&1
#   $J -cp $B$D/ratatosk-bench.jar io.ratatosk.bench.Bench jmh ... --out $W/before.json > $W/before.log 2>&1
#   tar czf $OUT/results.tgz -C $W .
set -euo pipefail
usage="Usage: benchmarks/jmh/scripts/device-bundle.sh [--no-peer] [BEFORE_REV]"
refuse() {
    echo "device-bundle.sh: $1" >&2
    echo "$usage" >&2
    exit 2
}
# Every argument checked before the build (minutes): an unknown option was taken for BEFORE_REV, a revision that does
# not exist was found after the build and the jlink runtime, and --no-peer after the revision was ignored.
peer=yes
revs=()
for arg in "$@"; do
    case "$arg" in
        --no-peer) peer=no ;;
        -h | --help) echo "$usage"; exit 0 ;;
        -*) refuse "unknown option $arg" ;;
        *) revs+=("$arg") ;;
    esac
done
if [ ${#revs[@]} -gt 1 ]; then
    refuse "one BEFORE_REV at most: ${revs[*]}"
fi
root=$(git rev-parse --show-toplevel)
cd "$root"
if [ ${#revs[@]} -eq 1 ] && ! git rev-parse --verify --quiet "${revs[0]}^{commit}" > /dev/null; then
    refuse "no such revision: ${revs[0]}"
fi
set -- "${revs[@]}"
out=$root/.bench/device

mvn -B -q -o package -DskipTests -pl benchmarks/launcher -am
mkdir -p "$out"
cp benchmarks/launcher/target/ratatosk-bench.jar "$out/ratatosk-bench.jar"
zip -q -d "$out/ratatosk-bench.jar" 'aix/*' 'win/*' 'freebsd/*' 'darwin/*' 'linux/riscv64/*' 'linux/ppc64/*' \
    'linux/ppc64le/*' 'linux/loongarch64/*' 'linux/mips64/*' 'linux/s390x/*' 'linux/i386/*' 'linux/aarch64/*' \
    'linux/arm/*' 'ldbc/sample/*' 'org/apache/pdfbox/*' 'org/apache/fontbox/*' 'com/sun/jna/win32*' \
    'com/sun/jna/aix*' 'com/sun/jna/darwin*' 'com/sun/jna/sunos*' 'com/sun/jna/freebsd*' 'com/sun/jna/openbsd*' \
    'com/sun/jna/dragonflybsd*' 'com/sun/jna/linux-x86/*' 'com/sun/jna/linux-arm*' 'com/sun/jna/linux-aarch64/*' \
    'com/sun/jna/linux-ppc*' 'com/sun/jna/linux-mips64el/*' 'com/sun/jna/linux-loongarch64/*' \
    'com/sun/jna/linux-s390x/*' 'com/sun/jna/linux-riscv64/*' 'org/jline/nativ/Windows/*' 'org/jline/nativ/Mac/*' \
    'org/jline/nativ/FreeBSD/*' > /dev/null || true # zip exits 12 when a pattern matches nothing
# The simulator's decompressors and the chart libraries: `jmh` and `demo` never load them (`sim`, `ldbc` and
# `jmh-report` run here). Without them the bundle and the working tree fit the 64 MiB a run may carry (2026-11-30:
# 0.5 MB over with them).
zip -q -d "$out/ratatosk-bench.jar" 'org/apache/commons/compress/*' 'org/tukaani/*' 'linux/amd64/libzstd*' \
    'com/github/luben/*' 'org/knowm/*' 'de/rototor/*' 'de/erichseifert/*' > /dev/null || true

if [ $peer = no ]; then
    zip -q -d "$out/ratatosk-bench.jar" 'org/neo4j/*' 'org/eclipse/collections/*' > /dev/null || true
fi

if [ ! -x "$out/jre/bin/java" ]; then
    jlink --add-modules java.base,java.management,jdk.management,jdk.unsupported,java.logging,jdk.jfr \
        --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/jre"
    strip --strip-unneeded "$out/jre/lib/server/libjvm.so"
fi

rm -rf "$out/before" "$out/policies-before.jar"
if [ $# -ge 1 ]; then
    tree=$(mktemp -d)
    # a failed build of the earlier commit left its worktree registered and its folder in the temp directory
    trap 'git worktree remove --force "$tree" 2> /dev/null || true; rm -rf "$tree"' EXIT
    git worktree add -f "$tree" "$1" > /dev/null
    (cd "$tree" && mvn -B -q -o package -DskipTests -pl pagecache -am)
    mkdir -p "$out/before"
    for module in cache-core cache-policies pagecache; do
        cp "$tree"/$module/target/$module-*-SNAPSHOT.jar "$out/before/"
    done
    git worktree remove --force "$tree"
fi
du -sh "$out"
