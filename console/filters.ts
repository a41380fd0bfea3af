// A list's filter form, written once for the terminals and the jobs: its fields filled from the
// address's parameters, and its submit putting the non-empty ones back into the address
// (`#view?name=value…`), which the router turns into the view again.
import { h } from './dom.js';

/** A labelled field of the form, its input named `name` and filled from `params` (ids start with `prefix`). */
export function filterField(params: URLSearchParams, prefix: string) {
  return (name: string, label: string, input: HTMLInputElement | HTMLSelectElement) => {
    input.id = `${prefix}-${name}`;
    input.name = name;
    input.value = params.get(name) ?? '';
    return h('div', { class: 'field' }, h('label', { for: input.id }, label), input);
  };
}

/** Submitting `form` goes to `#view` with the fields of `names` that are not empty. */
export function submitsTo(form: HTMLFormElement, view: string, names: readonly string[]): void {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const name of names) {
      const v = (form.elements.namedItem(name) as HTMLInputElement).value.trim();
      if (v) q.set(name, v);
    }
    location.hash = `#${view}${q.toString() ? `?${q}` : ''}`;
  });
}
