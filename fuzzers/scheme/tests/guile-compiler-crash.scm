;; Guile 3.0.8's compiler (compile, compile-file, auto-compilation) fails on
;; this program with "language/cps/intmap.scm:397:51: not found 59" (in
;; type-fold, then renumber); its evaluator (--no-auto-compile -s), Racket,
;; Chez and CHICKEN print "a#t" and "done". Reduced from seed 199 of the
;; conformance test (tests/conformance.rs).
(define (f k v) (display k) (display v) (newline))
(for-each
 (lambda (x)
   (when x
     (when 0
       (f "a" x))
     (when (or x x)
       #f)
     #f))
 (list #t))
(display "done")
(newline)
