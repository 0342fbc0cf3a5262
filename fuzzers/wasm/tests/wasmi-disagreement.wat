;; Reduced by hand from xsmith-wasm 0.1.0 --seed 1. wasmtime 48 and wasm-interp
;; (wabt 1.0.32) print main() => i64:0: $g sets $p to 0, so the select's
;; condition (i32.eqz (local.get $p)) is 1 and it picks its first operand, 0.
;; wasmi 2.0.0 prints 1, as if $p were no longer 0 after the call: the call
;; passes $p to $f, whose body assigns that parameter from (i32.eqz of a fresh
;; local). Without the assignment in $f, or with $f returning a constant,
;; the engines agree.
(module
  (func $f (param $a i32) (param $b i32) (param $c i32) (result i32)
    (local $x i32)
    (local.set $b (i32.eqz (local.get $x)))
    (local.get $b))
  (func $g (param $p i32) (result i32)
    (local.set $p (i32.const 0))
    (select (i32.const 0) (call $f (i32.const -1) (local.get $p) (i32.const 5)) (i32.eqz (local.get $p))))
  (func $main (export "main") (result i64) (i64.extend_i32_u (call $g (i32.const 6))))
  (func $checksum (export "checksum") (result i64) (i64.const 0)))
