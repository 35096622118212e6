/**
 * Writes MEGABYTES of CSV with mixed PII to stdout, as fast as the reader takes it (bench/anonymize).
 *
 *   node dist/bench/anonymize/generate.js MEGABYTES
 */
const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis'];

function row(i: number): string {
  const f = FIRST[i % 8];
  const l = LAST[(i >> 3) % 8];
  return `${f} ${l},${f.toLowerCase()}.${l.toLowerCase()}${i}@example.com,(212) 555-${String(1000 + (i % 9000))},${String(100 + (i % 600))}-${String(10 + (i % 80))}-${String(1000 + (i % 9000))},4111111111111111,10.${i % 250}.${(i >> 8) % 250}.1,${(i % 1000) / 10},"note ${i}"\n`;
}

const target = Number(process.argv[2] ?? 1024) * 1024 * 1024;
let written = 0;
let i = 0;
process.stdout.write('full_name,email,phone,ssn,card,ip,amount,notes\n');
function pump(): void {
  while (written < target) {
    let chunk = '';
    for (let k = 0; k < 1000; k++) chunk += row(i++);
    written += chunk.length;
    if (!process.stdout.write(chunk)) {
      process.stdout.once('drain', pump);
      return;
    }
  }
}
pump();
