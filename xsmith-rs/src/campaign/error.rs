//! Why a campaign could not run, or stopped.

use std::fmt;

use super::shard::Shard;
use crate::exec::ImplementationError;
use crate::options::OptionError;

/// Why a campaign could not run, or stopped.
///
/// ```
/// let error = xsmith::CampaignError::Implementation(xsmith::ImplementationError::None);
/// assert!(error.is_usage());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CampaignError {
    /// A bad, missing or duplicate implementation.
    Implementation(ImplementationError),
    /// A bad generation option.
    Options(OptionError),
    /// The fuzzer's spec could not be made (the message).
    Spec(String),
    /// Zero jobs.
    NoJobs,
    /// A shard whose index is not within `1..=count`.
    BadShard(Shard),
    /// The findings directory cannot be created.
    Findings(String),
    /// Writing a finding, the journal or the report, or reading a journal,
    /// failed.
    Io(String),
    /// Another campaign writes the journal this one would (the message
    /// names the process and host that hold its lock).
    JournalHeld(String),
}

impl CampaignError {
    /// Whether the error is a bad option or value, or a journal another
    /// campaign holds (the command line exits with status 2 for those, 1
    /// for the rest).
    ///
    /// ```
    /// assert!(!xsmith::CampaignError::Io("disk full".into()).is_usage());
    /// ```
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            CampaignError::Implementation(_)
                | CampaignError::Options(_)
                | CampaignError::NoJobs
                | CampaignError::BadShard(_)
                | CampaignError::Findings(_)
                | CampaignError::JournalHeld(_)
        )
    }
}

impl fmt::Display for CampaignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CampaignError::Implementation(e) => write!(f, "{e}"),
            CampaignError::Options(e) => write!(f, "{e}"),
            CampaignError::Spec(e) => write!(f, "the fuzzer's spec is wrong: {e}"),
            CampaignError::NoJobs => write!(f, "--jobs must be at least 1"),
            CampaignError::BadShard(shard) => write!(f, "--shard {shard}: not a shard K/N with 1 <= K <= N"),
            CampaignError::Findings(e) => write!(f, "--findings {e}"),
            CampaignError::Io(e) | CampaignError::JournalHeld(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CampaignError {}
