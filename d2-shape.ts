import { parse, print, Kind } from 'graphql';
import { readFileSync } from 'node:fs';
function shape(sdl: string): Set<string> {
  const out = new Set<string>();
  for (const d of parse(sdl).definitions as any[]) {
    if (!d.name || /^(join__|link__)/.test(d.name.value)) continue;
    if (d.kind === Kind.ENUM_TYPE_DEFINITION) { for (const v of d.values) out.add(`enum ${d.name.value}.${v.name.value}`); continue; }
    if (!d.fields) { out.add(`${d.kind} ${d.name.value}`); continue; }
    for (const f of d.fields) {
      const args = (f.arguments ?? []).map((a: any) => `${a.name.value}:${print(a.type)}`).sort().join(',');
      out.add(`${d.name.value}.${f.name.value}(${args}): ${print(f.type)}`);
    }
  }
  return out;
}
const [a, b] = [shape(readFileSync(process.argv[2]!, 'utf8')), shape(readFileSync(process.argv[3]!, 'utf8'))];
for (const x of a) if (!b.has(x)) console.log('- ' + x);
for (const x of b) if (!a.has(x)) console.log('+ ' + x);
