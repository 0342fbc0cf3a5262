//! The values of data fields: a literal's value, a variable's name.

use std::fmt;

/// A data field's value.
///
/// ```
/// use xsmith::Value;
/// assert_eq!(Value::from(3), Value::Int(3));
/// assert_eq!(Value::from("x").to_string(), "x");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A floating-point number.
    Float(f64),
    /// A string (a name, a string literal's contents).
    Str(String),
}

impl Value {
    /// The integer, if it is one.
    ///
    /// ```
    /// assert_eq!(xsmith::Value::Int(4).as_int(), Some(4));
    /// assert_eq!(xsmith::Value::Bool(true).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The string, if it is one.
    ///
    /// ```
    /// assert_eq!(xsmith::Value::from("n").as_str(), Some("n"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v:?}"),
            Value::Str(v) => f.write_str(v),
        }
    }
}

macro_rules! value_from {
    ($($source:ty => $variant:ident via $convert:expr),* $(,)?) => {
        $(impl From<$source> for Value {
            fn from(v: $source) -> Value {
                Value::$variant($convert(v))
            }
        })*
    };
}

value_from! {
    i64 => Int via |v| v,
    i32 => Int via i64::from,
    u32 => Int via i64::from,
    bool => Bool via |v| v,
    f64 => Float via |v| v,
    String => Str via |v| v,
    &str => Str via str::to_string,
}
