// The two pieces every discounting model here is built from.

/** What `amount`, received in `years`, is worth today at `rate`. */
export const presentValue = (amount: number, rate: number, years: number) => amount / (1 + rate) ** years;

/** The value, one period before its first payment, of `next` growing at `growth` forever (Gordon). */
export const perpetuity = (next: number, rate: number, growth: number) => next / (rate - growth);

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
