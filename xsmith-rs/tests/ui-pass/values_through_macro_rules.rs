//! Property values that arrive through a `macro_rules!` `$value:expr` (in an
//! invisible group) or in parentheses are the literals inside.

use xsmith::{component, Spec};

macro_rules! weighted {
    ($weight:expr, $depth:expr, $generated:expr, $feature:expr) => {
        component! {
            fn spec;
            grammar {
                Program { body: Expr }
                abstract Expr {}
                One: Expr {}
                Wrap: Expr { inner: Expr }
            }
            render {
                Program => [body],
                One => ["1"],
                Wrap => ["(", inner, ")"],
            }
            choice_weight { One => $weight, Wrap => (1) }
            depth_increase { Wrap => $depth }
            may_be_generated { Wrap => $generated }
            feature { Wrap => $feature }
        }
    };
}

weighted!(5, 2, true, "wrapping");

fn main() {
    let spec = Spec::assemble("Program", [spec()]).unwrap();
    assert_eq!(spec.feature_groups(), ["wrapping"]);
}
