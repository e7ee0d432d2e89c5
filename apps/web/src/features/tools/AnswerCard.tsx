import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface AnswerCardProps {
  rows: readonly (readonly [string, ReactNode])[];
  footnote: string;
  children?: ReactNode;
}

/** A lookup's answer: label and value rows, then where it came from. */
export const AnswerCard = ({ rows, footnote, children }: AnswerCardProps) => (
  <Card variant="outlined" sx={{ mt: 1 }} aria-label="Lookup result">
    <CardContent>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 24, rowGap: 8, margin: 0 }}>
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </div>
        ))}
      </dl>
      {children}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {footnote}
      </Typography>
    </CardContent>
  </Card>
);
