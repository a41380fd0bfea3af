// The spec's date form, "dd/MM/yyyy HH:mm:ss.fff", in the server's local time (as the reference
// service writes it).
const p2 = (n: number) => String(n).padStart(2, '0');

export function formatData(d: Date): string {
  return `${p2(d.getDate())}/${p2(d.getMonth() + 1)}/${d.getFullYear()} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}
