/**
 * An action bar label that breaks, when it must, in one place only: between its two halves, each
 * kept whole. On a phone a label then takes two lines at most ("Sweep expired offers" took three at
 * 390 px and the bar grew), and the button is never narrower than its wider half.
 */
export function BarLabel({ first, second }: { first: string; second: string }) {
  return (
    <>
      <span class="bar-line">{first}</span> <span class="bar-line">{second}</span>
    </>
  );
}
