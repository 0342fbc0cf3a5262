use std::time::Instant;
use xsmith::{Generator, Options, Random};
fn main() {
    let spec = (xsmith_calc::FUZZER.spec)().unwrap();
    let mut g = Generator::new(&spec, Options { max_depth: 12, max_nodes: 10_000_000, ..Default::default() }).unwrap();
    let t = Instant::now();
    let mut trees = Vec::new();
    let mut nodes = 0;
    for seed in 0..5000 { let tree = g.generate(&mut Random::from_seed(seed)).unwrap(); nodes += tree.len(); trees.push(tree); }
    let gen = t.elapsed();
    let t = Instant::now();
    let mut bytes = 0;
    for tree in &trees { bytes += xsmith::render::render_tree(&spec, tree, 80).len(); }
    let ren = t.elapsed();
    println!("nodes {nodes} gen {:?} ({:.0} nodes/s) render {:?} ({:.0} nodes/s) bytes {bytes}", gen, nodes as f64 / gen.as_secs_f64(), ren, nodes as f64 / ren.as_secs_f64());
}
