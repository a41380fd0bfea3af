// A child process for the journal crash tests: opens the journal in argv[3] (from the built
// package at argv[2]) and runs the steps in argv[4..], printing one line after each durable
// record; then waits to be killed. Steps: begin:<job>, done:<job>, abort:<job>, loop:<n> (n jobs,
// begin then done each, as fast as it can), hold (wait forever).
const [dist, dir, ...steps] = process.argv.slice(2);
const { Journal } = await import(dist);
const journal = Journal.open(dir, { slack: 20 });
console.log(`open ${process.pid}`);
for (const step of steps) {
  const [what, arg] = step.split(':');
  if (what === 'begin') journal.begin(arg, 'tok-1');
  if (what === 'done') journal.done(arg, 'tok-1', 'printer');
  if (what === 'abort') journal.abort(arg, 'tok-1');
  if (what === 'loop') {
    for (let i = 0; i < Number(arg); i++) {
      journal.begin(`job-${i}`, `t${i}`);
      console.log(`began job-${i}`);
      journal.done(`job-${i}`, `t${i}`, 'sent');
      console.log(`done job-${i}`);
    }
  }
  console.log(`${step} ok`);
}
setInterval(() => undefined, 60_000);
