#!/usr/bin/env python3
"""Not run by the build: how the lessons' INI files were laid out from
one table (lines under inih's 200 bytes, a value continued on indented
lines).  Edit the .ini files themselves; this is kept for bulk edits."""
import textwrap, sys, os

CH3 = "Chapter 3: the CUDA execution model"
CH5 = "Chapter 5: shared memory"
PAST = "Past the book: what Hopper adds"
BVH = "book-vs-hopper.md"

L = []
def lesson(name, **kw):
    L.append((name, kw))

lesson("divergence", order=10, chapter=CH3, topic="Warp divergence: half of each warp idles",
  claim="mathKernel1 branches on tid % 2, so every warp runs both paths in turn with half of its threads masked off; "
        "mathKernel2 branches on whole warps and never diverges. Half the threads working means about twice the time.",
  book="50% warp execution efficiency for mathKernel1 (Tesla M2070), 100% for mathKernel2",
  run="divergence.math1 divergence.math2 -n 2^22",
  figure="speedup divergence.math1 divergence.math2", rule=">= 1.5", unit="x",
  why="Each branch of math1 calls a function with a loop, which the compiler cannot turn into predicated "
      "instructions, so a warp runs the even threads' loop and then the odd threads', each with half of its lanes off. "
      "math2 gives each branch to whole warps: the same work, every lane busy. The counter behind it is "
      "warp_execution_efficiency: 50.16% for math1 on an H200, 100% for math2, and math1 takes 1.98x as long.",
  docs=BVH + "#1-warp-divergence-mathkernel1-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.5x reduce.neighbored",
  task="The book's reduceNeighbored lets thread tid work when tid % (2 * stride) == 0, so the working threads are "
       "spread over every warp. Write a reduction whose working threads are packed into the first warps "
       "(remap the index, as reduceNeighboredLess does), so that whole warps idle instead of half of each.")

lesson("divergence-debug", order=20, chapter=CH3, topic="Divergent branches under -G",
  claim="Built with -G, where the compiler may not predicate short branches, mathKernel3 (math1 written as two ifs) "
        "shows divergent branches in its branch efficiency.",
  book="71.43% branch efficiency for mathKernel3 built with -G (Tesla M2070)",
  run="divergence.math3_debug --metrics branch_efficiency",
  figure="metric divergence.math3_debug branch_efficiency", rule="<= 80", unit="%",
  why="branch_efficiency counts the branches at which every active thread of a warp went the same way. "
      "Optimised code predicates the two short ifs, so no branch diverges; -G code keeps them as branches, "
      "and each splits the warp. gpulab's math3_debug gives the book's 71.43% exactly on Hopper: the same "
      "source, the same unoptimised branches.",
  docs=BVH + "#1-warp-divergence-mathkernel1-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.7x reduce.neighbored",
  task="Write a reduction whose only divergent branch is the last one of each warp: pair each element with "
       "the one blockDim.x / 2 away (the book's reduceInterleaved), halving the stride each step.")

lesson("reduce-neighbored-less", order=30, chapter=CH3, topic="The reduction ladder: fewer idle warps",
  claim="reduceNeighboredLess, the same tree with the working threads packed into the first warps, is faster "
        "than reduceNeighbored because its warps execute fewer instructions.",
  book="11.722 ms against 9.321 ms at 2^24 ints: 1.26x (Tesla M2070)",
  run="reduce.neighbored reduce.neighbored_less -n 2^24 -t int",
  figure="speedup reduce.neighbored reduce.neighbored_less", rule=">= 1.1", unit="x",
  why="Both kernels add the same pairs and read the same 16.7 M sectors; neighbored_less only remaps which thread "
      "adds which pair, so at each step the working threads fill whole warps and the idle warps retire. "
      "inst_per_warp falls from 290 to 112 on an H200, and the time by 1.77x, more than the book's 1.26x.",
  docs=BVH + "#2-the-reduction-ladder-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.neighbored_less",
  task="Start from the template (the book's reduceInterleaved with its tree in shared memory) and make it at "
       "least as fast as neighbored_less. Read the template's contract first: it says what the kernel must write.")

lesson("reduce-interleaved", order=40, chapter=CH3, topic="The reduction ladder: interleaved pairs",
  claim="reduceInterleaved's gain comes from its loads and stores: each warp reads and writes contiguous "
        "addresses, so fewer transactions move the same data.",
  book="near 25% global load efficiency for both neighbored kernels, near 100% for interleaved (Tesla M2070)",
  run="reduce.neighbored_less reduce.interleaved -n 2^24 -t int --metrics gld_transactions",
  figure="metric_ratio reduce.neighbored_less reduce.interleaved gld_transactions", rule=">= 2", unit="x",
  why="A global transaction on Hopper is a 32-byte sector. Threads that add neighbours stride through memory, "
      "so a warp's 32 reads touch many sectors for a few useful bytes each; interleaved threads read 32 "
      "consecutive words, 4 sectors. On an H200 interleaved moves 3.84x fewer load sectors, yet is only 1.17x "
      "faster: neither kernel is near the memory's bandwidth.",
  docs=BVH + "#4-transactions-of-interleaved-against-neighbored-pairs-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.interleaved",
  task="Make the template at least as fast as reduce.interleaved: the tree in shared memory, contiguous pairs, "
       "one element per thread.")

lesson("reduce-unroll", order=50, chapter=CH3, topic="The reduction ladder: unrolling",
  claim="Each thread first adds elements of several blocks' worth of data (reduceUnrolling8 adds eight), so "
        "more loads are in flight and an eighth of the blocks run the tree.",
  book="6.967 ms for reduceInterleaved, 1.422 ms for reduceUnrolling8 at 2^24 ints: 4.90x (computed; Tesla M2070)",
  run="reduce.interleaved reduce.unroll8 -n 2^24 -t int",
  figure="speedup reduce.interleaved reduce.unroll8", rule=">= 2", unit="x",
  why="A reduction reads each element once: its speed is how many bytes are in flight while the memory answers. "
      "Eight independent loads a thread before the first add keep eight times as many in flight, and the "
      "tree, with its __syncthreads steps, runs for an eighth of the blocks. On an H200 at 2^24 unroll8 is "
      "3.2x faster than interleaved and reaches 42% of peak; at 2^28, 70%.",
  docs=BVH + "#2-the-reduction-ladder-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.unroll8",
  task="Unroll: with per_thread=8 on the contract line, each thread first adds 8 elements a block apart, then "
       "the block runs the tree (docs/try.md, step 1). Match reduce.unroll8.")

lesson("reduce-volatile-warp", order=60, chapter=CH3, topic="The reduction ladder: the volatile last warp",
  claim="Unrolling the last warp of the tree with a volatile pointer, without __syncthreads, makes the "
        "unrolled reduction faster still.",
  book="1.422 ms for reduceUnrolling8, 1.355 ms with the last warp unrolled: 1.05x (computed; Tesla M2070)",
  run="reduce.unroll8 reduce.unroll_warps8 -n 2^24 -t int",
  figure="speedup reduce.unroll8 reduce.unroll_warps8", rule=">= 1.02", unit="x",
  because="volatile global accesses skip L1, and since Volta a warp's threads are not in lockstep, so the "
          "pattern races; written with __syncwarp (reduce.unroll_warps8_sync) it is faster",
  why="The book's last warp relies on a warp's 32 threads running in lockstep, which Volta's independent thread "
      "scheduling ended: without __syncwarp the volatile reads may see another thread's old value. On an H200 "
      "unroll_warps8 is slower than unroll8 (0.0355 against 0.0335 ms), the same unrolling with __syncwarp "
      "faster. Warp shuffles (__shfl_down_sync) add within a warp with no memory at all.",
  docs="reduce.md",
  challenge="reduce", args="-n 2^24 -t int", target="1.1x reduce.unroll8",
  task="Replace the last warp's steps with __shfl_down_sync: each warp adds its 32 values in registers and one "
       "value per warp goes through shared memory (docs/try.md, step 2). Beat unroll8 by 10%.")

lesson("reduce-complete-unroll", order=70, chapter=CH3, topic="The reduction ladder: complete unrolling",
  claim="With the block size a template parameter, the whole tree unrolls at compile time: no loop, no "
        "index arithmetic, the dead steps gone.",
  book="1.422 ms for reduceUnrolling8, 1.253 ms for reduceCompleteUnroll<512>: 1.13x (computed; Tesla M2070)",
  run="reduce.unroll8 reduce.complete_unroll -n 2^24 -t int",
  figure="speedup reduce.unroll8 reduce.complete_unroll", rule=">= 1.03", unit="x",
  because="at 2^24 the fixed costs of a launch and the copy of the block sums weigh more on Hopper than the loop",
  why="The loop of the tree costs a compare, a shift and a branch per step; the template knows the block size, "
      "so each step is straight-line code and the steps a block of 512 does not need vanish. On an H200 the "
      "complete unroll is 1.08x faster at 2^24. gpulab's kernel ends with __syncwarp, not volatile.",
  docs=BVH + "#2-the-reduction-ladder-chapter-3",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.complete_unroll",
  task="GPULAB_BLOCK is a compile-time constant in your file: write the tree with it, every step an if on "
       "the constant, and match reduce.complete_unroll.")

lesson("sum-matrix-blocks", order=80, chapter=CH3, topic="Execution configuration: 16-wide blocks",
  claim="A block whose innermost dimension is half a warp (16x32, 16x16) makes each warp read two half rows, "
        "and halves global load efficiency: the innermost dimension should be a multiple of 32.",
  book="49.80% global load efficiency for 16x16 blocks, 100% for 32x32 (Tesla M2070, 16384 x 16384)",
  run="sum_matrix.block16x16 --metrics gld_efficiency",
  figure="metric sum_matrix.block16x16 gld_efficiency", rule="<= 60", unit="%",
  because="Hopper's L1 serves global loads in 32-byte sectors, and a 16-wide warp's two 64-byte half rows "
          "are whole sectors; Fermi cached them in 128-byte lines",
  why="gld_efficiency is the bytes asked for over the bytes in the sectors moved. A warp of a 16-wide block "
      "reads two 64-byte half rows: 4 sectors, as many as a 32-wide warp's one row. The book's 49.8% came "
      "from Fermi's L1, which moved a 128-byte line for each half row. So on Hopper 16x16 is the fastest of "
      "the book's four shapes.",
  docs=BVH + "#3-global-load-efficiency-of-16-wide-blocks-chapter-3-summatrixongpu2d",
  challenge="sum_matrix", args="", target="1.0x sum_matrix.block16x16",
  task="Write C = A + B for the 16384 x 16384 matrices and choose your own block on the contract line. "
       "Match the best of the book's shapes on this GPU, 16x16.")

lesson("sum-matrix-occupancy", order=90, chapter=CH3, topic="Execution configuration: the fastest shape",
  claim="Of the four block shapes, 32x16 is the fastest: whole-warp rows and more blocks resident than 32x32.",
  book="60 ms for 32x32, 38 ms for 32x16: 1.58x (computed; Tesla M2070)",
  run="sum_matrix.block32x32 sum_matrix.block32x16",
  figure="speedup sum_matrix.block32x32 sum_matrix.block32x16", rule=">= 1.2", unit="x",
  because="on Hopper occupancy still rises as blocks shrink but no longer decides the time: the sum is bound by "
          "memory, and every shape moves whole sectors",
  why="On the Fermi of the book a 32x32 block of 1024 threads left SMs half empty, and occupancy decided the "
      "time. On an H200 32x16 is only 1.11x faster than 32x32, and 8x32, with the highest occupancy, is "
      "among the slowest: each shape streams the same bytes in whole sectors, so the memory, not the "
      "occupancy, sets the pace.",
  docs=BVH + "#3-global-load-efficiency-of-16-wide-blocks-chapter-3-summatrixongpu2d",
  challenge="sum_matrix", args="", target="1.05x sum_matrix.block32x32",
  task="Beat the book's 32x32 by 5%: choose a shape, and think about how many bytes each thread has in "
       "flight (a tile of several elements a thread is allowed).")

lesson("smem-gmem", order=100, chapter=CH5, topic="Shared memory: the tree out of global memory",
  claim="reduceSmem, the same unrolled tree held in shared memory, is faster than reduceGmem, which reduces "
        "in place in global memory, because it cuts the global loads and stores.",
  book="smem faster than gmem, with far fewer global transactions (the book's nvprof table)",
  run="reduce.gmem reduce.smem -n 2^24 -t int",
  figure="speedup reduce.gmem reduce.smem", rule=">= 1.03", unit="x",
  why="On an H200 smem's global loads fall 2.25x, to the input's own sectors, and its stores 81x, to one a "
      "block, yet it is only 1.09x faster: neither kernel is bound by that traffic (17% and 18% of peak). "
      "Both wait on the same chain of __syncthreads steps. The lever is loads in flight: unroll4_smem is 3x "
      "faster than smem at 2^28.",
  docs=BVH + "#7-reduction-in-global-against-shared-memory-chapter-5",
  challenge="reduce", args="-n 2^24 -t int", target="1.5x reduce.smem",
  task="Keep the tree in shared memory, and have each thread add four elements before it (reduce.unroll4_smem's "
       "idea). Beat reduce.smem by half.")

lesson("smem-pad", order=110, chapter=CH5, topic="Bank conflicts: padding a tile",
  claim="A warp reading a column of a 32x32 int tile finds all 32 words in one bank; padding each row by one "
        "word (32x33) spreads the column over the 32 banks: one transaction per request.",
  book="many shared transactions per request for the 32x32 tile, one for 32x33",
  run="transpose.smem transpose.smem_pad --metrics shared_load_transactions_per_request",
  figure="metric_ratio transpose.smem transpose.smem_pad shared_load_transactions_per_request", rule=">= 8", unit="x",
  why="Shared memory has 32 banks of 4-byte words; word w is in bank w % 32. Row r of a 32x32 tile starts at "
      "word 32r, so a column is 32 words of one bank, served one after another. With rows of 33 words, "
      "column c of row r is in bank (r + c) % 32: every bank once. On an H200 the column read falls from 32.14 "
      "wavefronts a request to 1.25, and the transpose runs 1.75x faster.",
  docs=BVH + "#5-padding-a-shared-memory-tile-32x32-against-32x33-chapter-5",
  challenge="transpose", args="-t int", target="1.0x transpose.smem_pad",
  task="Write a transpose through a shared tile with no bank conflicts (pad it, or swizzle the column index "
       "with an XOR) and match transpose.smem_pad. --metrics shared_ld_bank_conflict shows the conflicts left.")

lesson("transpose-memcpy", order=120, chapter=CH5, topic="The transpose family: the copy as ceiling",
  claim="A transpose moves every byte once in and once out, so a copy of the same bytes is its ceiling; the "
        "tiled, conflict-free transpose comes close to it.",
  book="the book compares its transposes with a row copy, the upper bound (chapter 4's matrix transpose)",
  run="transpose.memcpy transpose.smem_unroll -t float",
  figure="speedup transpose.memcpy transpose.smem_unroll", rule=">= 0.8", unit="x",
  why="A transpose reads rows and writes columns; through a shared tile both sides are coalesced, and "
      "with a 64x64 tile, 16 elements a thread, enough loads are in flight to stream. On an H200 at 8192 x "
      "8192 floats smem_unroll takes 0.1374 ms against memcpy's 0.1288: 94% of the copy.",
  docs=BVH + "#5-padding-a-shared-memory-tile-32x32-against-32x33-chapter-5",
  challenge="transpose", args="-t float", target="0.8x transpose.memcpy",
  task="Reach 80% of the copy: a conflict-free tile, several elements a thread (tile=64x64 with block=32x8 on "
       "the contract line), no bank conflicts.")

lesson("nested-nosync", order=95, chapter=CH3, topic="Dynamic parallelism: the recursive reduction",
  claim="gpuRecursiveReduceNosync, the recursion without the device-side synchronisations, is much faster than "
        "gpuRecursiveReduce, which waits on each child grid.",
  book="172.036 ms with the waits, 59.125 ms without: 2.9x (computed; Tesla K40c, 2^20 ints)",
  run="nested.recursive_reduce nested.recursive_reduce_nosync -n 2^20",
  figure="speedup nested.recursive_reduce nested.recursive_reduce_nosync", rule=">= 1.5", unit="x",
  because="sm_90 runs only CDP2, which has no device-side cudaDeviceSynchronize: the nosync port sends each "
          "child to the tail-launch stream, and tail launches run one after another",
  why="The book's nosync kernel launched the child before the block's other threads had added their halves "
      "(a race). On Hopper gpulab's recursive_reduce already drops the wait, its children on each block's "
      "stream running side by side, and nosync's 16384 tail launches run in series: 10x slower. One child "
      "grid per level (recursive_reduce2) is the recursion that pays: 8 launches.",
  docs=BVH + "#6-dynamic-parallelism-recursive-reductions-chapter-3",
  challenge="reduce", args="-n 2^20 -t int", target="1.0x reduce.unroll8",
  task="No recursion can beat one launch from the host at 2^20: write a reduction that matches reduce.unroll8 "
       "at 2^20 ints, where launches and copies weigh most.")

lesson("rung-wide", order=140, chapter=PAST, topic="16-byte loads",
  claim="Loading an int4 (16 bytes) a thread instead of an int moves 512 bytes per warp instruction: a "
        "quarter of the blocks, load instructions and block sums for the same bytes.",
  book="past the book: its last rung, shfl, reads 2^24 ints at 20.7% of an H200's peak",
  run="reduce.shfl reduce.wide -n 2^24 -t int",
  figure="speedup reduce.shfl reduce.wide", rule=">= 1.5", unit="x",
  why="gld_requests falls from 524288 to 131072 for the same bytes, each request 16 sectors instead of 4. "
      "The last n % 4 elements are the grid's first threads', so every size is right. On an H200 wide is 2.38x "
      "faster than shfl at 2^24 ints and 3.21x at 2^28.",
  docs="hopper.md#1-wide-16-byte-loads",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.wide",
  task="Load int4 or float4 (reinterpret_cast the input where its address allows), add with shuffles, and "
       "do not forget the n % 4 tail: the gate's n = 1000003 catches it.")

lesson("rung-persistent", order=150, chapter=PAST, topic="A persistent grid: enough bytes in flight",
  claim="Little's law: to stream at the memory's bandwidth the GPU needs bandwidth x latency bytes in flight, "
        "about 13 KB an SM on an H200; a grid of as many blocks as the GPU holds, eight loads a thread, keeps them.",
  book="past the book: wide reaches 78% of peak at 2^28 ints on an H200",
  run="reduce.wide reduce.persistent -n 2^28 -t int",
  figure="speedup reduce.wide reduce.persistent", rule=">= 1.05", unit="x",
  why="wide's threads load once, then spend their lives in the block's tree and the next block's launch. "
      "persistent's 264 blocks (2 an SM) stream contiguous spans, eight 16-byte loads in flight a thread, and "
      "run the tree once a block. Long-scoreboard stalls rise from 27 to 62 an issue: waiting on memory "
      "becomes what a warp does, as it should in a bandwidth-bound kernel. 1.18x at 2^28, 92% of peak.",
  docs="hopper.md#2-persistent-enough-bytes-in-flight",
  challenge="reduce", args="-n 2^24 -t int", target="1.0x reduce.cub",
  task="Beat CUB: grid=persistent on the contract line, several 16-byte loads in flight a thread before "
       "the first add, and finish=device with an atomicAdd where it helps (tests/try/reduce_shfl.cu shows one way).")

lesson("rung-cluster", order=160, chapter=PAST, topic="Thread-block clusters: a price in placement",
  claim="Meeting the block sums in a cluster's distributed shared memory (8 blocks, one sum leaves the GPU) "
        "saves the finish: the persistent grid in clusters should be faster.",
  book="past the book: persistent reads 2^24 ints at 52.5% of an H200's peak",
  run="reduce.persistent reduce.cluster -n 2^24 -t int",
  figure="speedup reduce.persistent reduce.cluster", rule=">= 1.0", unit="x",
  because="a cluster of 8 blocks needs 4 SMs of one GPC, and the H200's GPCs do not all hold a multiple of 4: "
          "whole clusters leave SMs empty, and fewer blocks keep fewer bytes in flight",
  why="The finish is not the cost: a copy of 132 bytes takes as long as one of 1 KB. The grid is: 240 blocks "
      "in 30 clusters against persistent's 264, 9% of the slots empty. cluster is 0.93-0.95x persistent on "
      "an H200. The next rung, one_pass, keeps cluster's grid and ends in the same launch, and wins back more "
      "than cluster lost.",
  docs="hopper.md#3-cluster-the-block-sums-meet-in-distributed-shared-memory",
  challenge="reduce", args="-n 2^24 -t float", target="0.95x reduce.best",
  task="Come within 5% of reduce.best, gpulab's fastest, on floats: one launch, a persistent grid, and the "
       "sum finished on the device.")

lesson("transpose-tma", order=170, chapter=PAST, topic="Transpose with the Tensor Memory Accelerator",
  claim="Handing whole 64x64 tiles to Hopper's copy engine (cp.async.bulk.tensor, a 128-byte swizzle in "
        "shared memory) moves a transpose closer to the copy than the best hand-tiled kernel.",
  book="past the book: smem_swizzle reaches 93.1-93.9% of memcpy on an H200",
  run="transpose.smem_swizzle transpose.tma -t int",
  figure="speedup transpose.smem_swizzle transpose.tma", rule=">= 1.0", unit="x",
  why="The TMA unit computes the addresses and moves the tile itself, so the threads only swap the tile in "
      "shared memory and write it out. On an H200 tma reaches 95.6-95.7% of memcpy at 8192 and 16384 squared, "
      "against smem_swizzle's 93.1-93.9%: about 1.02x, near the noise of a 0.13 ms kernel.",
  docs="hopper.md#transpose-with-tma",
  challenge="transpose", args="-t int", target="0.9x transpose.memcpy",
  task="Reach 90% of the copy with threads alone: a swizzled or padded 64x64 tile, 16 elements a thread.")

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
KEYS = [("lesson", ["order", "chapter", "topic", "claim", "book", "run", "figure", "rule", "unit", "because", "why", "docs"]),
        ("task", ["challenge", "args", "target", "task"])]
for name, kw in L:
    assert len(kw["topic"]) <= 44, kw["topic"]
    lines = ["; gpulab learn: lesson %s (docs/learn.md says what each key means)" % name]
    for sec, keys in KEYS:
        lines.append("[%s]" % sec)
        for k in keys:
            if k not in kw or kw[k] == "":
                continue
            key = "text" if k == "task" else k
            v = str(kw[k])
            w = textwrap.wrap(v, 96 - len(key) - 3) or [""]
            lines.append("%s = %s" % (key, w[0]))
            for more in w[1:]:
                lines.append("\t" + more)
        lines.append("")
    for ln in lines:
        assert len(ln) <= 198 and " ;" not in ln and not ln.lstrip("\t").startswith("#"), ln
    open(os.path.join(out, name + ".ini"), "w").write("\n".join(lines))
print(len(L), "lessons")
