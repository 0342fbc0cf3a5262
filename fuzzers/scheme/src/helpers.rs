//! The runtime helpers, each written into a program that uses it: 64-bit
//! wrapping arithmetic on exact integers (whose intermediate results are
//! bignums), safe division and modulo, bounded string concatenation,
//! indexing modulo the length, dictionaries as tagged association lists,
//! records as tagged vectors, and a printer and checksum of the fuzzer's
//! own, since `display` and `write` of strings, lists and procedures differ
//! between implementations. Only R5RS procedures and `when` are used.

use xsmith::Helper;

/// The helpers, in dependency order (a helper calls only earlier ones,
/// those it `uses`).
pub(crate) const HELPERS: &[Helper] = &[
    Helper::new(
        "int-wrap",
        r##"(define (int-wrap x)
  (- (modulo (+ x 9223372036854775808) 18446744073709551616) 9223372036854775808))"##,
    ),
    Helper::new("int+", "(define (int+ a b) (int-wrap (+ a b)))").uses(&["int-wrap"]),
    Helper::new("int-", "(define (int- a b) (int-wrap (- a b)))").uses(&["int-wrap"]),
    Helper::new("int*", "(define (int* a b) (int-wrap (* a b)))").uses(&["int-wrap"]),
    Helper::new("int-negate", "(define (int-negate a) (int-wrap (- a)))").uses(&["int-wrap"]),
    Helper::new(
        "int-quotient",
        "(define (int-quotient a b) (if (= b 0) a (int-wrap (quotient a b))))",
    )
    .uses(&["int-wrap"]),
    Helper::new("int-modulo", "(define (int-modulo a b) (if (= b 0) a (modulo a b)))"),
    Helper::new(
        "bounded-string-append",
        r##"(define (bounded-string-append a b)
  (let ((s (string-append a b)))
    (if (> (string-length s) 40) (substring s 0 40) s)))"##,
    ),
    Helper::new(
        "vector-ref/mod",
        "(define (vector-ref/mod v i) (vector-ref v (modulo i (vector-length v))))",
    ),
    Helper::new(
        "vector-set/mod!",
        "(define (vector-set/mod! v i x) (vector-set! v (modulo i (vector-length v)) x))",
    ),
    Helper::new(
        "list-ref/mod",
        "(define (list-ref/mod l i) (list-ref l (modulo i (length l))))",
    ),
    Helper::new("make-dict", "(define (make-dict . entries) (vector 'dict entries))"),
    Helper::new(
        "dict-ref",
        r##"(define (dict-ref d k default)
  (let ((entry (assoc k (vector-ref d 1))))
    (if entry (cdr entry) default)))"##,
    ),
    Helper::new(
        "dict-remove",
        r##"(define (dict-remove k entries)
  (cond ((null? entries) '())
        ((equal? (car (car entries)) k) (cdr entries))
        (else (cons (car entries) (dict-remove k (cdr entries))))))"##,
    ),
    Helper::new(
        "dict-set!",
        r##"(define (dict-set! d k v)
  (vector-set! d 1 (cons (cons k v) (dict-remove k (vector-ref d 1)))))"##,
    )
    .uses(&["dict-remove"]),
    Helper::new("make-record", "(define (make-record x y) (vector 'record x y))"),
    Helper::new(
        "show-string",
        r##"(define (show-string s)
  (write-char #\")
  (for-each
   (lambda (c)
     (cond ((char=? c #\") (display "\\\""))
           ((char=? c #\\) (display "\\\\"))
           ((char=? c #\newline) (display "\\n"))
           ((char=? c #\tab) (display "\\t"))
           ((or (char<? c #\space) (char>? c #\~))
            (display "\\x") (display (number->string (char->integer c))) (display ";"))
           (else (write-char c))))
   (string->list s))
  (write-char #\"))"##,
    ),
    Helper::new(
        "sort-entries",
        r##"(define (sort-entries entries)
  (define (insert e sorted)
    (if (or (null? sorted) (string<? (car e) (car (car sorted))))
        (cons e sorted)
        (cons (car sorted) (insert e (cdr sorted)))))
  (let loop ((rest entries) (sorted '()))
    (if (null? rest) sorted (loop (cdr rest) (insert (car rest) sorted)))))"##,
    ),
    Helper::new(
        "show",
        r##"(define (show x)
  (define (tagged? tag) (and (vector? x) (eq? (vector-ref x 0) tag)))
  (define (show-each items separator)
    (for-each (lambda (e) (display separator) (show e)) items))
  (cond ((boolean? x) (display (if x "#t" "#f")))
        ((integer? x) (display (number->string x)))
        ((string? x) (show-string x))
        ((null? x) (display "()"))
        ((pair? x) (display "(") (show (car x)) (show-each (cdr x) " ") (display ")"))
        ((tagged? 'dict)
         (display "{")
         (for-each (lambda (e) (show (car e)) (display ": ") (show (cdr e)) (display "; "))
                   (sort-entries (vector-ref x 1)))
         (display "}"))
        ((tagged? 'record)
         (display "{x: ") (show (vector-ref x 1)) (display ", y: ") (show (vector-ref x 2)) (display "}"))
        ((vector? x)
         (display "#(") (show (vector-ref x 0)) (show-each (cdr (vector->list x)) " ") (display ")"))
        ((procedure? x) (display "#<procedure>"))
        (else (display "#<unknown>"))))"##,
    )
    .uses(&["show-string", "sort-entries"]),
    Helper::new("out", "(define (out x) (show x) (newline))").uses(&["show"]),
    Helper::new(
        "checksum",
        r##"(define (checksum values)
  (define (mix acc n) (modulo (+ (* acc 31) n) 4294967291))
  (define (sum acc x)
    (cond ((boolean? x) (mix acc (if x 1 2)))
          ((integer? x) (mix acc (modulo x 4294967291)))
          ((string? x) (mix (sum acc (map char->integer (string->list x))) 3))
          ((null? x) (mix acc 4))
          ((pair? x) (sum (sum (mix acc 5) (car x)) (cdr x)))
          ((vector? x) (mix (sum acc (vector->list x)) 6))
          ((symbol? x) (mix acc 7))
          (else (mix acc 8))))
  (display "checksum ")
  (display (number->string (sum 0 values)))
  (newline))"##,
    ),
];
