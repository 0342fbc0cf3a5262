;; Reduced automatically by `xsmith-wasm reduce` (choice-sequence reduction)
;; from the five wasmi findings of `xsmith-wasm diff --count 1000 --seed 0
;; --reduce`: 258, 250, 251, 251 and 254 nodes -> 21, 21, 18, 29 and 17
;; nodes, 40-60 s each. All five keep the same core: a `select` whose
;; condition is `(i32.eqz (local.get $x))` and one of whose operands reads
;; $x too. Below is that core alone, from the 18-node reduction of seed 239
;; (`(select (local.get $v6) (local.get $v5) (i32.eqz (local.get $v5)))`,
;; whose result was an address in memory), with the fuzzer's fixed harness
;; (division wrappers, memory, checksum over globals and memory) left out.
;;
;; wasmtime 48 and wasm-interp (wabt 1.0.32) print main() => i64:4294967280:
;; $x is -16, so the condition (i32.eqz (local.get $x)) is 0 and the select
;; picks its second operand, $x itself. wasmi 2.0.0 prints main() => i64:0:
;; it picks the first operand, as if the condition were the other way round.
;;
;; An earlier reduction (seed 1201 of `--seed 1000 --count 2000`, 172 ->
;; 21 nodes) had a `local.tee $x` in the select's first operand and was read
;; as "wasmi reads $x from before the tee"; these five need no write at all,
;; so the trigger is the condition and an operand reading the same local.
(module
  (func $f (result i32)
    (local $x i32)
    (local $y i32)
    (local.set $x (i32.const -16))
    (select (local.get $y) (local.get $x) (i32.eqz (local.get $x))))
  (func $main (export "main") (result i64)
    (i64.extend_i32_u (call $f)))
  (func $checksum (export "checksum") (result i64) (i64.const 0)))
