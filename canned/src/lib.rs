//! Reusable spec components (filled in by the canned-components issue).
