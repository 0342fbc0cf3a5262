//! Swarm testing (Groce, Zhang, Eide, Chen and Regehr, "Swarm Testing",
//! ISSTA 2012; Csmith's swarm mode; wasm-smith draws its whole `Config` at
//! random): instead of every program using every feature at the default
//! size, each program draws its own configuration: a random subset of the
//! feature groups and random values of the size options. A program that
//! leaves out a feature can nest the others deeper, and omitting a feature
//! also omits what it suppresses (a bug that an operator's wrapper hides
//! shows once that operator is gone), so a swarm of configurations finds
//! bugs that one configuration, however long it runs, finds rarely.
//!
//! The configuration is drawn from the program's seed alone, on a random
//! stream of its own (the program's choices come from the seed's usual
//! stream, untouched), and the drawn options are ordinary options: the
//! program's header comment writes them, so the header's command
//! regenerates the program byte for byte without `--swarm`.
//!
//! What is drawn, on top of the options given (the base):
//!
//! - each feature group that is on under the base (on by default and not
//!   in `--without`, or named by `--with`) stays on with probability
//!   [`Swarm::probability`], independently; groups the base switches off
//!   stay off;
//! - `--max-depth`, uniformly in `1 ..= max(1, 3/2 x the base's)` (1 to 7
//!   at the default 5: shallow programs of many features, deeper ones too);
//! - `--type-max-depth`, uniformly in `1 ..= the base's + 1` (1 to 3).
//!
//! The limits (`--max-nodes`, `--time-limit`) stay the base's.
//!
//! A drawn subset may leave no way to make a program (no group left that
//! makes an expression of any type): the generator says so at start-up
//! ([`OptionError::Uninhabited`](crate::OptionError)), and the next
//! configuration of the same stream is drawn, up to [`DRAWS`] times, after
//! which the program has the base's groups (with the drawn sizes).
//!
//! The default probability is 1/2: Groce et al. omit each feature with a
//! coin toss, which maximises the variety of subsets (each of the `2^n` is
//! equally likely), and Csmith's swarm mode does the same.
//!
//! ```
//! use xsmith::swarm::Swarm;
//! let spec = xsmith::example::spec();
//! let swarm = Swarm::default();
//! assert_eq!(swarm.probability, 0.5);
//! let options: Vec<xsmith::Options> = (0..40).map(|seed| swarm.options(&spec, &Default::default(), seed)).collect();
//! // The same seed draws the same configuration.
//! assert_eq!(options[7], swarm.options(&spec, &Default::default(), 7));
//! // The example's one group, `division`, is sometimes off, sometimes on.
//! assert!(options.iter().any(|o| o.without == ["division"]));
//! assert!(options.iter().any(|o| o.without.is_empty()));
//! assert!(options.iter().all(|o| (1..=7).contains(&o.max_depth) && (1..=3).contains(&o.type_max_depth)));
//! ```

use crate::generate::Generator;
use crate::options::Options;
use crate::random::Random;
use crate::spec::Spec;

/// The ChaCha stream swarm configurations are drawn on (programs use
/// stream 0).
const SWARM_STREAM: u64 = 0x0053_7761_726d; // "Swarm"

/// How swarm testing draws each program's configuration (see the
/// [module docs](self)).
///
/// ```
/// let swarm = xsmith::swarm::Swarm { probability: 1.0 };
/// let spec = xsmith::example::spec();
/// // Every group stays on; only the sizes vary.
/// assert!((0..20).all(|seed| swarm.options(&spec, &Default::default(), seed).without.is_empty()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swarm {
    /// The probability that each feature group (of those the base options
    /// leave on) stays on, in `0 ..= 1`.
    pub probability: f64,
}

impl Default for Swarm {
    /// Probability 1/2, a coin toss per group, as Groce et al. and Csmith's
    /// swarm mode do.
    fn default() -> Swarm {
        Swarm { probability: 0.5 }
    }
}

impl Swarm {
    /// The options of the program of `seed`: `base` with the feature groups
    /// and size options drawn from `seed`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let none = xsmith::swarm::Swarm { probability: 0.0 };
    /// let options = none.options(&spec, &Default::default(), 3);
    /// assert_eq!(options.without, ["division"]);
    /// // A group the base switches off is never switched back on.
    /// let all = xsmith::swarm::Swarm { probability: 1.0 };
    /// let base = xsmith::Options { without: vec!["division".into()], ..Default::default() };
    /// assert_eq!(all.options(&spec, &base, 3).without, ["division"]);
    /// ```
    pub fn options(&self, spec: &Spec, base: &Options, seed: u64) -> Options {
        let mut random = Random::from_seed_on_stream(seed, SWARM_STREAM);
        let mut options = base.clone();
        for _ in 0..DRAWS {
            options = self.draw(spec, base, &mut random);
            if Generator::new(spec, options.clone()).is_ok() {
                return options;
            }
        }
        Options {
            with: base.with.clone(),
            without: base.without.clone(),
            ..options
        }
    }

    /// One configuration drawn from `random`.
    fn draw(&self, spec: &Spec, base: &Options, random: &mut Random) -> Options {
        let mut options = base.clone();
        let off_by_default = |group: &str| spec.features_off_by_default().iter().any(|g| g == group);
        let named = |names: &[String], group: &str| names.iter().any(|n| n == group);
        for group in self.groups(spec) {
            let on = named(&base.with, group) || !(off_by_default(group) || named(&base.without, group));
            if !on || self.keeps(random) {
                continue;
            }
            options.with.retain(|name| name != group);
            if !off_by_default(group) {
                options.without.push(group.to_string());
            }
        }
        options.max_depth = draw_in(random, 1, (base.max_depth.saturating_mul(3) / 2).max(1));
        options.type_max_depth = draw_in(random, 1, base.type_max_depth.saturating_add(1));
        options
    }

    /// The feature groups a configuration draws over: every group of the
    /// spec with a production that can be generated, in the spec's order.
    fn groups<'s>(&self, spec: &'s Spec) -> Vec<&'s str> {
        let generatable = |group: &str| {
            spec.grammar()
                .ids()
                .any(|id| spec.is_generatable(id) && spec.features(id).iter().any(|g| g == group))
        };
        spec.feature_groups().into_iter().filter(|g| generatable(g)).collect()
    }

    /// Whether a group stays on: true with probability `self.probability`
    /// (in steps of 2^-53).
    fn keeps(&self, random: &mut Random) -> bool {
        const STEPS: u64 = 1 << 53;
        let threshold = (self.probability.clamp(0.0, 1.0) * STEPS as f64) as u64;
        random.below(STEPS) < threshold
    }
}

/// How many configurations are drawn for one program, at most, before it
/// falls back to the base's groups: each subset that leaves no way to make
/// a program is drawn again.
pub const DRAWS: usize = 16;

/// A number drawn uniformly in `low ..= high`.
fn draw_in(random: &mut Random, low: u32, high: u32) -> u32 {
    low + random.below(u64::from(high - low) + 1) as u32
}

/// Reads a probability, a number in `0 ..= 1`, as `--swarm-probability`
/// takes it.
pub(crate) fn parse_probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("`{text}` is not a probability between 0 and 1")),
    }
}

/// `--swarm` and `--swarm-probability`, of generation and `diff` alike.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "--swarm", "--swarm-probability", "0.25"]);
/// assert_eq!(args.swarm.swarm(), Some(xsmith::swarm::Swarm { probability: 0.25 }));
/// assert_eq!(xsmith::cli::Args::parse_from(["x"]).swarm.swarm(), None);
/// assert!(xsmith::cli::Args::try_parse_from(["x", "--swarm", "--swarm-probability", "2"]).is_err());
/// ```
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SwarmArgs {
    /// Each program draws, from its seed, a random subset of the feature groups
    /// and random size options (written in its header).
    #[arg(long)]
    pub swarm: bool,
    /// With --swarm, the probability that each feature group stays on.
    #[arg(long, value_name = "P", default_value_t = Swarm::default().probability,
          value_parser = parse_probability, requires = "swarm")]
    pub swarm_probability: f64,
}

impl SwarmArgs {
    /// The swarm these arguments ask for, if any.
    ///
    /// ```
    /// let args = xsmith::cli::SwarmArgs { swarm: true, swarm_probability: 0.5 };
    /// assert_eq!(args.swarm(), Some(Default::default()));
    /// ```
    pub fn swarm(&self) -> Option<Swarm> {
        self.swarm.then_some(Swarm {
            probability: self.swarm_probability,
        })
    }
}
