import { boundedNumber, boundedText, boundedList } from "./packages/engine/src/limits/bounded.ts";
const n = boundedNumber(0, 1024, { unit: "cores" });
for (const v of [1e20, 9007199254740993, -1, Infinity, NaN, 5]) console.log(v, JSON.stringify(n.safeParse(v).error?.issues.map(i=>i.message)));
console.log(JSON.stringify(boundedNumber(0, 10, {whole: true}).safeParse(2.5).error?.issues));
console.log(JSON.stringify(boundedText(4096).safeParse("x".repeat(1048576)).error?.issues));
console.log(JSON.stringify(boundedText(10, {trim: true, min: 1}).safeParse("  \u0000 ").error?.issues));
console.log(JSON.stringify(boundedText(10, {trim: true, min: 1}).safeParse("  a ")));
console.log(JSON.stringify(boundedList(boundedText(5), 3).safeParse(["a","b","c","d"]).error?.issues));
