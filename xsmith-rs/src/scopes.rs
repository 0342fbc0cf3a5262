//! The declarations of names a spec makes, as properties: which productions
//! bind names (definitions, parameters), which refer to them (reads,
//! writes), and which introduce scopes. What is visible where is computed
//! from them in `names`.

/// How a binder is introduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderStyle {
    /// A definition (`let x = ...`, a function definition): the kind of
    /// binder that lifting may insert.
    Definition,
    /// A parameter of a function.
    Parameter,
}

/// Which binders of a scope a node inside it sees, and which binders of
/// the scopes around it.
///
/// Inside an `Isolated` scope, only its own binders and those of `Global`
/// scopes around it are visible: a Ruby `def`, a C function (which sees
/// the file's globals), a Python method (which does not see its class
/// body's names). A lifted definition for a reference inside it goes into
/// a scope inside it or into a `Global` one.
///
/// ```
/// use xsmith::ScopeKind;
/// let mut c = xsmith::Component::new("c");
/// c.scope("Program", ScopeKind::Global).scope("Def", ScopeKind::Isolated);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// Binders in earlier children only (blocks, lambdas).
    Sequential,
    /// Every binder of the scope, its own included (mutually recursive
    /// definitions).
    Recursive,
    /// Binders in earlier children, as `Sequential`, and of the scopes
    /// around it only the `Global` ones' (see above).
    Isolated,
    /// Binders in earlier children, as `Sequential`, seen from inside
    /// `Isolated` scopes too: the language's globals.
    Global,
}

impl ScopeKind {
    /// Whether a node inside the scope sees the binders of its earlier
    /// children only (every kind but `Recursive`), which is what a scope
    /// receiving lifted definitions needs.
    ///
    /// ```
    /// assert!(xsmith::ScopeKind::Isolated.is_sequential());
    /// assert!(!xsmith::ScopeKind::Recursive.is_sequential());
    /// ```
    pub fn is_sequential(self) -> bool {
        !matches!(self, ScopeKind::Recursive)
    }
}

/// Whether a reference reads or writes its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads the variable.
    Read,
    /// Assigns the variable (only writable binders qualify).
    Write,
}

/// The `binder_info` property: the data field holding the bound name, the
/// binder's style, and whether references may write it.
///
/// ```
/// use xsmith::{BinderInfo, BinderStyle};
/// let info = BinderInfo::new("name", BinderStyle::Definition).read_only();
/// assert!(!info.writable);
/// ```
#[derive(Clone, Debug)]
pub struct BinderInfo {
    /// The data field that holds the bound name.
    pub name_field: String,
    /// Definition or parameter.
    pub style: BinderStyle,
    /// Whether a write reference may target it.
    pub writable: bool,
    /// The child that holds a read-only definition's value, if any: a call
    /// through a reference to the binder then has the latent effects of
    /// that value (a function literal's body).
    pub value_field: Option<String>,
}

impl BinderInfo {
    /// A writable binder whose name is in `name_field`.
    ///
    /// ```
    /// let info = xsmith::BinderInfo::new("name", xsmith::BinderStyle::Parameter);
    /// assert!(info.writable);
    /// ```
    pub fn new(name_field: &str, style: BinderStyle) -> BinderInfo {
        BinderInfo {
            name_field: name_field.to_string(),
            style,
            writable: true,
            value_field: None,
        }
    }

    /// The same binder, but read-only.
    ///
    /// ```
    /// let info = xsmith::BinderInfo::new("n", xsmith::BinderStyle::Definition).read_only();
    /// assert!(!info.writable);
    /// ```
    pub fn read_only(mut self) -> BinderInfo {
        self.writable = false;
        self
    }

    /// The same binder, with its value in the child `field` (only read-only
    /// definitions' values are looked at: a writable one may be reassigned,
    /// and a parameter's value comes from each call).
    ///
    /// ```
    /// use xsmith::{BinderInfo, BinderStyle};
    /// let info = BinderInfo::new("name", BinderStyle::Definition).read_only().value("init");
    /// assert_eq!(info.value_field.as_deref(), Some("init"));
    /// ```
    pub fn value(mut self, field: &str) -> BinderInfo {
        self.value_field = Some(field.to_string());
        self
    }
}

/// The `reference_info` property: the data field that will hold the
/// referenced name, and whether the reference reads or writes.
///
/// ```
/// use xsmith::{Access, ReferenceInfo};
/// let target = ReferenceInfo::new("name", Access::Write);
/// assert_eq!(target.access, Access::Write);
/// ```
#[derive(Clone, Debug)]
pub struct ReferenceInfo {
    /// The data field that holds the referenced name.
    pub name_field: String,
    /// Read or write.
    pub access: Access,
}

impl ReferenceInfo {
    /// A reference whose name goes in `name_field`.
    ///
    /// ```
    /// let r = xsmith::ReferenceInfo::new("name", xsmith::Access::Read);
    /// assert_eq!(r.name_field, "name");
    /// ```
    pub fn new(name_field: &str, access: Access) -> ReferenceInfo {
        ReferenceInfo {
            name_field: name_field.to_string(),
            access,
        }
    }
}
