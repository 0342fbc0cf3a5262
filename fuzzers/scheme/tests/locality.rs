//! Local choices for the Scheme fuzzer (see `xsmith_tests::locality`):
//! replacing one random subtree of a program by its smallest version
//! leaves the rest of the program as it was. Prints its figures
//! (`--nocapture`) and asserts a floor a little under what was measured
//! on 1,000 programs at the default options: 90.7% of splices changed no
//! other node (94.2% of those that hold no variable used outside; 57.0%
//! without local choices).

#[test]
fn scheme_choices_are_local() {
    xsmith_tests::locality::check("scheme", &(xsmith_scheme::FUZZER.spec)().unwrap(), 88.0);
}
