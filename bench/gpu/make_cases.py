#!/usr/bin/env python3
"""Writes the calibration and validation cases of the cost model
(bench/gpu/cases/*.json, wgsl-compute-case/1) and their list
(bench/gpu/experiments.json). Run it after changing a size; the GPU script
(calibrate.sh) times these cases on Dawn, and tests/prof.cmake checks the
model's predictions against the committed timings."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
SMS = 132  # the H200's SMs: the grid-stride variants use 16 and 64 per SM

def case(name, title, shader, entry, groups, params, out_words, extra=None, constants=None,
         src_words=0):
    bufs = [{"name": "p", "binding": 0, "kind": "uniform", "type": "u32", "count": 4,
             "init": {"at": 0, "data": (params + [0, 0, 0, 0])[:4]}}]
    if shader == "reads.wgsl":
        bufs.append({"name": "src", "binding": 1, "kind": "read-only-storage", "type": "u32",
                     "count": src_words, "init": {"at": 0, "count": src_words,
                                                  "iota": {"start": 0, "step": 1}}})
        bufs.append({"name": "o", "binding": 2, "kind": "storage", "type": "u32",
                     "count": out_words})
    else:
        bufs.append({"name": "o", "binding": 1, "kind": "storage",
                     "type": "f32" if shader == "seed.wgsl" else "u32", "count": out_words})
    if extra: bufs += extra
    pipe = {"entryPoint": entry}
    big = max(b["count"] for b in bufs) * 4
    if constants: pipe["constants"] = constants
    c = {"format": "wgsl-compute-case/1", "name": "cost_" + name, "title": title,
         "shader": "../kernels/" + shader, "pipelines": {"main": pipe}, "buffers": bufs,
         "dispatches": [{"pipeline": "main", "workgroups": list(groups)}],
         "readback": ["o"], "compare": {"o": {"mode": "ignore", "why": "timing only"}}}
    if big > 134217728:  # past WebGPU's default binding size
        c["device"] = {"requiredLimits": {"maxStorageBufferBindingSize": big, "maxBufferSize": big}}
    with open(os.path.join(CASES, name + ".json"), "w") as f:
        json.dump(c, f, indent=1)
        f.write("\n")
    return name

def ceil(a, b): return (a + b - 1) // b

# role: "calibrate" (its time set a parameter of the nvidia row: "sets"),
# "validate" (checked, set nothing), "report" (shown, not checked: a known
# limit of the model, "why"); group: the variants whose ratios are checked
exps = []
SETS = {"wg64": "cpiControl, cpiAlu, cpiFma (least squares with alu_int, alu_f32, alu_xs)",
        "alu_xs": "cpiControl, cpiAlu, cpiFma",
        "stride8": "l2GBs", "stride32": "lineCycles", "random": "regionCycles",
        "empty": "dispatchNs", "launch": "groupNs", "alu_int": "cpiControl, cpiAlu, cpiFma",
        "alu_f32": "cpiFma", "sfu": "cpiTrans", "idiv": "cpiIdiv", "conv": "cpiConv",
        "copy": "dramGBs", "atom_same": "atomicSameNs", "atom_own": "atomicGops",
        "barrier": "cpiBarrier", "banks32": "replayCycles", "uniform": "uniformCycles",
        "chase_l2": "l2LatencyNs", "chase_dram": "dramLatencyNs"}
WHY = {"alu_unroll": "the compiler folds the unrolled constant affine chain (8 LCG steps "
                     "become one multiply-add), which the bytecode keeps as 16",
       "stride64k": "256 distinct words stay in L1; the model has no L1 hits"}
def add(name, role, group=None):
    e = {"case": name, "role": role, "group": group}
    if name in SETS: e["role"], e["sets"] = "calibrate", SETS[name]
    elif role == "calibrate": e["role"] = "validate"  # a microbenchmark that set nothing
    if name in WHY: e["role"], e["why"] = "report", WHY[name]
    exps.append(e)

# ---- validation: the pairs
N = 1600000  # divisible by 64 and 100
for wg in (100, 64):
    add(case(f"wg{wg}", f"{N} elements, 64 LCG rounds each, workgroup_size({wg})", "work.wgsl",
             "rounds", (N // wg, 1, 1), [N, 64], N, constants={"WG": wg}), "validate", "wgsize")
N = 262144
for name, lo, hi in (("trips3", 3, 3), ("trips500", 500, 500), ("trips3_500", 3, 500)):
    add(case(name, f"{N} elements: {lo} LCG rounds, {hi} on every 32nd lane", "work.wgsl",
             "trips", (N // 128, 1, 1), [N, lo, hi], N), "validate", "trips")
N = 1048576
for name, mask in (("parity_same", 0), ("parity_split", 1)):
    add(case(name, f"{N} elements, 64 rounds on one side of an if split by (i & {mask})",
             "work.wgsl", "parity", (N // 128, 1, 1), [N, 64, 0, mask], N), "validate", "parity")
N = 4194304  # 16 MiB source: fits the H200's L2
for s in (1, 8, 32):
    add(case(f"stride{s}", f"{N} reads with a stride of {s} words from 16 MiB", "reads.wgsl",
             "strided", (N // 256, 1, 1), [N, s, N - 1], N, src_words=N), "validate", "reads")
add(case("random", f"{N} reads at hashed positions from 16 MiB", "reads.wgsl", "random",
         (N // 256, 1, 1), [N, 0, N - 1], N, src_words=N), "validate", "reads")
for n, tag in ((3000000, "3m"), (67108864, "67m")):
    g = ceil(n, 64)
    if g <= 65535:
        add(case(f"seed1d_{tag}", f"{n} elements, one invocation each, 1D", "seed.wgsl", "one_d",
                 (g, 1, 1), [n], n), "validate", "seed_" + tag)
    row = 4096
    add(case(f"seed2d_{tag}", f"{n} elements, one invocation each, {row} workgroups a row",
             "seed.wgsl", "two_d", (row, ceil(g, row), 1), [n, row], n), "validate", "seed_" + tag)
    for per in (16, 64):
        add(case(f"seedgs{per}_{tag}", f"{n} elements, grid-stride over {SMS * per} workgroups",
                 "seed.wgsl", "grid_stride", (SMS * per, 1, 1), [n], n), "validate", "seed_" + tag)

# ---- calibration microbenchmarks
q = [{"name": "q", "binding": 2, "kind": "storage", "type": "u32", "count": 1048576}]
add(case("empty", "one workgroup, one store: the dispatch's fixed cost", "micro.wgsl", "launch",
         (1, 1, 1), [0], 1048576, extra=q), "calibrate")
add(case("launch", "65535 workgroups of one store each: the cost of a workgroup", "micro.wgsl",
         "launch", (65535, 1, 1), [0], 1048576, extra=q), "calibrate")
G = SMS * 8  # 8 workgroups of 256 per SM: full occupancy
for entry, k in (("alu_int", 1024), ("alu_f32", 1024), ("sfu", 256), ("idiv", 256), ("conv", 256)):
    add(case(entry, f"{G} workgroups of 256, {k} rounds of {entry}", "micro.wgsl", entry,
             (G, 1, 1), [0, k, 7], G * 256, extra=q), "calibrate")
n = 33554432  # 128 MiB read + 128 MiB written
add(case("copy", f"copy {n} words, grid-stride over {SMS * 8} workgroups of 256", "micro.wgsl",
         "copy", (SMS * 8, 1, 1), [n], 2 * n, extra=q), "calibrate")
for a, tag in ((0, "same"), (1, "own")):
    add(case(f"atom_{tag}", f"{SMS * 4} workgroups of 256, 16 atomicAdds each to "
             + ("one word" if a == 0 else "its own word"), "micro.wgsl", "atom", (SMS * 4, 1, 1),
             [0, 16, a], 4, extra=q), "calibrate")
add(case("barrier", f"{G} workgroups of 256, 256 rounds of two barriers", "micro.wgsl", "barrier",
         (G, 1, 1), [0, 256], G * 256, extra=q), "calibrate")
for a in (1, 32):
    add(case(f"banks{a}", f"{G} workgroups of 256, 1024 workgroup reads with a stride of {a}",
             "micro.wgsl", "banks", (G, 1, 1), [0, 1024, a], G * 256, extra=q), "calibrate")
add(case("uniform", f"{N} lanes, 64 reads of one word each", "reads.wgsl", "same_word",
         (N // 256, 1, 1), [N, 64, 1023], N, src_words=1024), "calibrate")

# second set: parameters first fitted on validation pairs, now set from
# cases of their own
add(case("alu_unroll", f"{G} workgroups of 256, 128 rounds of 16 LCG steps", "micro.wgsl",
         "alu_unroll", (G, 1, 1), [0, 128], G * 256, extra=q), "calibrate")
for words, tag in ((1 << 20, "l2"), (1 << 26, "dram")):
    add(case(f"chase_{tag}", f"{SMS} subgroups, 2048 dependent loads over {words * 4 >> 20} MiB",
             "micro.wgsl", "chase", (SMS, 1, 1), [0, 2048, words - 1], words, extra=q), "calibrate")
N = 4194304
add(case("stride16", f"{N} reads with a stride of 16 words from 16 MiB", "reads.wgsl",
         "strided", (N // 256, 1, 1), [N, 16, N - 1], N, src_words=N), "calibrate")
add(case("stride64k", f"{N} reads 64 KiB apart from 16 MiB (256 distinct words)", "reads.wgsl",
         "strided", (N // 256, 1, 1), [N, 16384, N - 1], N, src_words=N), "calibrate")
add(case("alu_xs", f"{G} workgroups of 256, 256 rounds of 8 xorshift-multiply steps",
         "micro.wgsl", "alu_xs", (G, 1, 1), [0, 256], G * 256, extra=q), "calibrate")
W8 = 1 << 21  # 8 MiB
add(case("sweep_l2", f"16 coalesced sweeps over 8 MiB by {SMS * 8} workgroups of 256", "reads.wgsl",
         "sweep", (SMS * 8, 1, 1), [0, 16, W8 - 1], SMS * 8 * 256, src_words=W8), "calibrate")

with open(os.path.join(HERE, "experiments.json"), "w") as f:
    json.dump({"experiments": exps}, f, indent=1)
    f.write("\n")
print(len(exps), "experiments")
