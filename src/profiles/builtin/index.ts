// The built-in profile documents, as data. Order is template id order.
import base from './escpos-base.json' with { type: 'json' };
import generica from './generica.json' with { type: 'json' };
import mp4200 from './mp4200.json' with { type: 'json' };
import pr3000 from './pr3000.json' with { type: 'json' };
import dr800 from './dr800.json' with { type: 'json' };
import i9 from './i9.json' with { type: 'json' };
import t20 from './t20.json' with { type: 'json' };
import tp450 from './tp450.json' with { type: 'json' };

/** Baselines that templates extend but that are not templates themselves. */
// No prototype: a user's `extends: "constructor"` finds nothing here, as any other unknown name.
export const BASELINES: Readonly<Record<string, object>> = Object.assign(Object.create(null) as Record<string, object>, { 'escpos-base': base });

/** The seven templates of the spec (§2.3), ids 0–6. */
export const TEMPLATES: readonly object[] = [generica, mp4200, pr3000, dr800, i9, t20, tp450];
