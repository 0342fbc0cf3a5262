//! Coverage curves drawn as SVG (with `plotters`): covered k-paths against
//! the number of programs, and against their total size in bytes, one line
//! per way of generating them ([`draw`]); or any lines on linear axes, such
//! as coverage over time ([`draw_lines`]), or the median of several runs
//! with the band between their least and greatest ([`draw_spreads`]).

use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One way of generating programs, and what it covered as it went.
///
/// ```
/// let curve = xsmith::plot::Curve { name: "random".into(), points: vec![(1, 100, 10), (2, 230, 14)] };
/// assert_eq!(curve.points.last().map(|p| p.2), Some(14));
/// ```
#[derive(Clone, Debug)]
pub struct Curve {
    /// Its name in the legend.
    pub name: String,
    /// After each program: how many programs, their total bytes, the
    /// k-paths covered.
    pub points: Vec<(usize, usize, usize)>,
}

/// Draws `curves` into the SVG file `path`: covered k-paths against
/// programs (left) and against total bytes (right), both on a logarithmic
/// x axis, under `title`.
///
/// ```
/// use xsmith::plot::{draw, Curve};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("c.svg");
/// let curve = Curve { name: "random".into(), points: vec![(1, 100, 10), (2, 230, 14), (3, 300, 15)] };
/// draw(&path, "2-paths", &[curve]).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().starts_with("<svg"));
/// ```
pub fn draw(path: &Path, title: &str, curves: &[Curve]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let root = SVGBackend::new(path, (1200, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let root = root.titled(title, ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let (left, right) = root.split_horizontally(600);
    let most = |f: fn(&(usize, usize, usize)) -> usize| {
        curves
            .iter()
            .flat_map(|c| c.points.iter().map(f))
            .max()
            .unwrap_or(1)
            .max(2)
    };
    let covered = most(|p| p.2) as f64 * 1.05;
    for (area, x_label, x_of, x_max) in [
        (
            &left,
            "programs",
            (|p: &(usize, usize, usize)| p.0) as fn(&_) -> usize,
            most(|p| p.0),
        ),
        (&right, "total bytes", |p: &(usize, usize, usize)| p.1, most(|p| p.1)),
    ] {
        let mut chart = ChartBuilder::on(area)
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((1f64..x_max as f64).log_scale(), 0f64..covered)
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc("k-paths covered")
            .draw()
            .map_err(|e| fail(&e))?;
        let lines = curves.iter().map(|curve| Line {
            name: curve.name.clone(),
            points: curve
                .points
                .iter()
                .map(|p| (x_of(p).max(1) as f64, p.2 as f64))
                .collect(),
        });
        draw_legended(&mut chart, lines).map_err(|e| fail(&e))?;
    }
    root.present().map_err(|e| fail(&e))
}

/// Draws each line in a colour of its own, and the legend of their names.
fn draw_legended<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    lines: impl IntoIterator<Item = Line>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    for (i, line) in lines.into_iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(line.points, color.stroke_width(2)))?
            .label(line.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}

/// One line of [`draw_lines`]: its name in the legend and its points.
///
/// ```
/// let line = xsmith::plot::Line { name: "guided".into(), points: vec![(0.5, 1200.0), (60.0, 9000.0)] };
/// assert_eq!(line.points.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Line {
    /// Its name in the legend.
    pub name: String,
    /// Its points, (x, y), in order of x.
    pub points: Vec<(f64, f64)>,
}

/// Draws `lines` into the SVG file `path` on linear axes from 0, under
/// `title`: coverage over time, for instance.
///
/// ```
/// use xsmith::plot::{draw_lines, Line};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("t.svg");
/// let line = Line { name: "random".into(), points: vec![(1.0, 10.0), (5.0, 14.0)] };
/// draw_lines(&path, "edges", ("seconds", "edges covered"), &[line]).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("random"));
/// ```
pub fn draw_lines(path: &Path, title: &str, (x_desc, y_desc): (&str, &str), lines: &[Line]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let most = |axis: fn(&(f64, f64)) -> f64| lines.iter().flat_map(|l| l.points.iter().map(axis)).fold(1.0, f64::max);
    let mut chart =
        linear_chart(&root, title, (x_desc, y_desc), (most(|p| p.0), most(|p| p.1))).map_err(|e| fail(&e))?;
    draw_legended(&mut chart, lines.iter().cloned()).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

/// A chart on linear axes of `f64`.
type LinearChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart on linear axes from 0 to `x_most` and a little over `y_most`,
/// its mesh drawn, under `title`.
fn linear_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    (x_desc, y_desc): (&str, &str),
    (x_most, y_most): (f64, f64),
) -> Result<LinearChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..x_most, 0f64..y_most * 1.05)?;
    chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).draw()?;
    Ok(chart)
}

/// Several runs of one generator for [`draw_spreads`]: at each x, the
/// least, the median and the greatest y of the runs.
///
/// ```
/// let spread = xsmith::plot::Spread::of("guided".into(), &[vec![(0.0, 1.0), (1.0, 4.0)], vec![(0.0, 2.0), (1.0, 3.0)]]);
/// assert_eq!(spread.points, [(0.0, 1.0, 1.5, 2.0), (1.0, 3.0, 3.5, 4.0)]);
/// ```
#[derive(Clone, Debug)]
pub struct Spread {
    /// Its name in the legend.
    pub name: String,
    /// Its points, (x, least y, median y, greatest y), in order of x.
    pub points: Vec<(f64, f64, f64, f64)>,
}

impl Spread {
    /// The spread of `runs`, each a series of (x, y) points sampled at the
    /// same xs (the first run's; a run with fewer points ends the series).
    pub fn of(name: String, runs: &[Vec<(f64, f64)>]) -> Spread {
        let len = runs.iter().map(Vec::len).min().unwrap_or(0);
        let points = (0..len)
            .map(|i| {
                let mut ys: Vec<f64> = runs.iter().map(|run| run[i].1).collect();
                ys.sort_by(f64::total_cmp);
                let middle = match ys.len() % 2 {
                    1 => ys[ys.len() / 2],
                    _ => (ys[ys.len() / 2 - 1] + ys[ys.len() / 2]) / 2.0,
                };
                (runs[0][i].0, ys[0], middle, ys[ys.len() - 1])
            })
            .collect();
        Spread { name, points }
    }
}

/// Draws each spread as its median line over a pale band from its least to
/// its greatest y, into the SVG file `path` on linear axes from 0, under
/// `title`: several runs of each generator over time, for instance.
///
/// ```
/// use xsmith::plot::{draw_spreads, Spread};
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("s.svg");
/// let spread = Spread::of("random".into(), &[vec![(1.0, 10.0), (5.0, 14.0)], vec![(1.0, 9.0), (5.0, 15.0)]]);
/// draw_spreads(&path, "edges", ("seconds", "edges covered"), &[spread]).unwrap();
/// assert!(std::fs::read_to_string(&path).unwrap().contains("random"));
/// ```
pub fn draw_spreads(
    path: &Path,
    title: &str,
    (x_desc, y_desc): (&str, &str),
    spreads: &[Spread],
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let points = || spreads.iter().flat_map(|s| s.points.iter());
    let (x_most, y_most) = (points()).fold((1.0, 1.0), |(x, y), p| (f64::max(x, p.0), f64::max(y, p.3)));
    let mut chart = linear_chart(&root, title, (x_desc, y_desc), (x_most, y_most)).map_err(|e| fail(&e))?;
    for (i, spread) in spreads.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let band: Vec<(f64, f64)> = (spread.points.iter().map(|p| (p.0, p.3)))
            .chain(spread.points.iter().rev().map(|p| (p.0, p.1)))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(band, color.mix(0.2).filled())))
            .map_err(|e| fail(&e))?;
    }
    let medians = spreads.iter().map(|spread| Line {
        name: spread.name.clone(),
        points: spread.points.iter().map(|p| (p.0, p.2)).collect(),
    });
    draw_legended(&mut chart, medians).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}
