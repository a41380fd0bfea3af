// A compile worker for the time-budget tests: the real compile task from the build, except that
// after compiling the content "spin" it never returns (a compile that would run for ever).
import compileTask from '../../../dist/compile-worker.js';

export default function spinOrCompile(task) {
  const result = compileTask(task);
  if (task.conteudo === 'spin') for (;;);
  return result;
}
