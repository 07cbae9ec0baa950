/** A count as a badge shows it: "99+" past 99, so a nav item never grows to "20007". */
export const capCount = (n: number, max = 99): string => (n > max ? `${max}+` : String(Math.max(0, Math.floor(n))));
