; CHICKEN 5.3.0's compiler (csc, at its default level and at -O2) drops the
; initializer of a top-level definition whose variable the program later
; assigns, side effects and all: compiled, this prints only "2"; csi and
; every other implementation print "side effect" first. Found by
; `xsmith-scheme diff --count 1000 --seed 100000` (seed 100909), reduced
; with `xsmith-scheme reduce`, C-Vise, then by hand.
(define (show x) (display x) (newline))
(define v (show "side effect"))
(set! v 2)
(show v)
