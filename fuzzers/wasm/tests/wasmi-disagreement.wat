;; Reduced automatically by `xsmith-wasm reduce` (choice-sequence reduction,
;; 306 s, 8,974 candidates) from the finding of `xsmith-wasm diff --seed 1000
;; --count 2000` at seed 1201: 172 nodes -> 21. $v2 below is the reduced
;; function as generated, its three redundant `local.set $v3` and unused
;; locals dropped by hand; the fuzzer's fixed harness (division wrappers,
;; memory, checksum over globals and memory) is left out, as no part of it
;; matters.
;;
;; wasmtime 48 and wasm-interp (wabt 1.0.32) print main() => i64:4294967264:
;; the select's first operand sets $v4 to -15 and yields it, so its
;; condition (i32.eqz (local.get $v4)) is 0 and it picks its second operand,
;; -16; -16 + -16 = -32. wasmi 2.0.0 prints 4294967265 (-31): it evaluates
;; the condition with $v4's value from before the local.tee (0), and picks
;; -15. A second, earlier hand reduction (a call between the local.set and
;; the select, in the select's second operand) points the same way: wasmi
;; reads a local in a select's `i32.eqz` condition as it was before a write
;; made while evaluating the select's operands.
(module
  (func $v2 (result i32)
    (local $v4 i32)
    (i32.add
     (select (local.tee $v4 (i32.const -15)) (i32.const -16) (i32.eqz (local.get $v4)))
     (i32.const -16)))
  (func $main (export "main") (result i64)
    (i64.extend_i32_u (call $v2)))
  (func $checksum (export "checksum") (result i64) (i64.const 0)))
